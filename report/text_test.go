package report

import "testing"

// TestWrapText is the table test of the one wrapper: the check table's
// details (URIs broken inside) and the advice's sentences.
func TestWrapText(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  string
	}{
		{"a b c", 3, "a b\nc"},
		{"abcdefgh", 3, "abc\ndef\ngh"},
		{"uri\nthe detail", 20, "uri\nthe detail"},
		{"x abcdefg", 4, "x\nabcd\nefg"},
		{"", 5, ""},
		{"ab cd", 5, "ab cd"},                                  // a line exactly the width stays whole
		{"a   b\tc", 10, "a b c"},                              // blanks collapse, as in a sentence
		{"é é é", 3, "é é\né"},                                 // the width counts characters, not bytes
		{"see docs://a/b/c now", 8, "see\ndocs://a\n/b/c now"}, // a URI is broken where it must be
	}
	for _, c := range cases {
		if got := wrapText(c.in, c.width); got != c.want {
			t.Errorf("wrapText(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
