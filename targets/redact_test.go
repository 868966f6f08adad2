package targets

import "testing"

// TestRedactURLs: the password of every URL in a target string is masked,
// and nothing else is touched.
func TestRedactURLs(t *testing.T) {
	cases := []struct{ in, want, why string }{
		{"embedded", "embedded", "nothing to hide"},
		{"https://h/mcp", "https://h/mcp", "no user information"},
		{"https://u@h/mcp", "https://u@h/mcp", "a user name alone is not a secret"},
		{"https://u:p@h/mcp", "https://u:xxxxx@h/mcp", "the password is"},
		{"sse+http://u:p@ss@h/sse", "sse+http://u:xxxxx@h/sse", "an @ inside the password"},
		{"stdio:srv --upstream=https://u:p@h/x -v", "stdio:srv --upstream=https://u:xxxxx@h/x -v", "in an argument"},
		{"stdio:mail user@example.com", "stdio:mail user@example.com", "an address is not a URL"},
	}
	for _, c := range cases {
		if got := RedactURLs(c.in); got != c.want {
			t.Errorf("%s: RedactURLs(%q) = %q, want %q", c.why, c.in, got, c.want)
		}
	}
}
