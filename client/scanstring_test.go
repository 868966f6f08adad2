package client

import (
	"strings"
	"testing"
)

// TestIsSimpleEscape: the bit test takes exactly the bytes JSON allows
// after a backslash in a two-byte escape.
func TestIsSimpleEscape(t *testing.T) {
	for c := range 256 {
		want := strings.IndexByte(`"\/bfnrt`, byte(c)) >= 0
		if got := isSimpleEscape(byte(c)); got != want {
			t.Errorf("isSimpleEscape(%q) = %v, want %v", byte(c), got, want)
		}
	}
}

// TestPlainRun: from every start, the run ends at the first quote,
// backslash or control, word by word as byte by byte, and says whether it
// held a byte over ASCII.
func TestPlainRun(t *testing.T) {
	for _, s := range []string{
		"", "a", `abc"def`, `abcdefgh\ijklmnop"`, "abcdefghijklmnopqrstuvw\x1fxyz",
		"caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac plain text that runs on\"", "\x7f\x80\xff!#~ 0123456789",
		`""""""""""`, "\\\\\\\\\\\\\\\\\\", "\xe6\x97\xa5\xe6\x9c\xac\xe6\x97\xa5\xe6\x9c\xac\"\x01",
	} {
		p := []byte(s)
		for i := range len(p) + 1 {
			want, wantHigh := i, false
			for ; want < len(p) && p[want] >= 0x20 && p[want] != '"' && p[want] != '\\'; want++ {
				wantHigh = wantHigh || p[want] >= 0x80
			}
			if end, high := plainRun(p, i); end != want || high != wantHigh {
				t.Errorf("plainRun(%q, %d) = %d, %v, want %d, %v", s, i, end, high, want, wantHigh)
			}
		}
	}
}

// TestMediaTypeBare: a declared type taken as it is gives what the full
// parse gives.
func TestMediaTypeBare(t *testing.T) {
	for _, c := range []struct{ declared, want string }{
		{"text/markdown", "text/markdown"},
		{"application/vnd.api+json", "application/vnd.api+json"},
		{"Text/Markdown", "text/markdown"},
		{"text/plain; charset=utf-8", "text/plain"},
		{" text/plain ", "text/plain"},
		{"text/plain\t", "text/plain"},
		{"", ""},
	} {
		if got := mediaType(c.declared); got != c.want {
			t.Errorf("mediaType(%q) = %q, want %q", c.declared, got, c.want)
		}
	}
}
