package record

import "testing"

// TestSwapOrigin: only URLs on the upstream's origin are put on the
// proxy's: not another port that begins with the same digits, not a URL
// that merely contains the origin further on.
func TestSwapOrigin(t *testing.T) {
	const up, here = "http://127.0.0.1:80", "http://127.0.0.1:9000"
	for _, tc := range []struct{ in, want string }{
		{`Bearer resource_metadata="http://127.0.0.1:80/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`,
			`Bearer resource_metadata="http://127.0.0.1:9000/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`},
		{"http://127.0.0.1:80", here},
		{"http://127.0.0.1:80?x=1", here + "?x=1"},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
		{`realm="http://127.0.0.1:8080", a="http://127.0.0.1:80/x"`, `realm="http://127.0.0.1:8080", a="http://127.0.0.1:9000/x"`},
		{"", ""},
	} {
		if got := swapOrigin(tc.in, up, here); got != tc.want {
			t.Errorf("swapOrigin(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
