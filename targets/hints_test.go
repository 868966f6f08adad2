package targets

import (
	"strings"
	"testing"
)

// TestParseHints: a target Parse does not know, written as a usual
// mistake, is answered with the target meant; one that is no target at
// all gets no guess.
func TestParseHints(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"htp://127.0.0.1:18090/mcp", `did you mean "http://127.0.0.1:18090/mcp"?`},
		{"htps://example.com/mcp", `did you mean "https://example.com/mcp"?`},
		{"htp://127.0.0.1:18090", `did you mean "http://127.0.0.1:18090/mcp"?`},
		{"127.0.0.1:18090", `did you mean "http://127.0.0.1:18090/mcp"?`},
		{"localhost:18090/mcp", `did you mean "http://localhost:18090/mcp"?`},
		{"[::1]:8080", `did you mean "http://[::1]:8080/mcp"?`},
		{"sse+htp://h:1/sse", `did you mean "sse+http://h:1/sse"?`},
		{"htp://u:secret@h:1/mcp", `did you mean "http://u:xxxxx@h:1/mcp"?`},
		{"server.yaml", ""},
		{"ftp://h/x", ""},
		{"localhost", ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := Parse(tc.in)
			if err == nil {
				t.Fatalf("Parse(%q) accepted it", tc.in)
			}
			if tc.want == "" {
				if strings.Contains(err.Error(), "did you mean") {
					t.Errorf("Parse(%q): %v, want no guess", tc.in, err)
				}
				return
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%q): %v\nwant it to say %s", tc.in, err, tc.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("Parse(%q): the password is shown: %v", tc.in, err)
			}
		})
	}
}

// TestLooksLike: what a command's first argument is when it is written as
// a target rather than a workload file or a scenario.
func TestLooksLike(t *testing.T) {
	for in, want := range map[string]bool{
		"http://127.0.0.1:8080/mcp": true, "HTTPS://h/mcp": true, "sse+http://h/sse": true, "range+http://h/files/": true,
		"stdio:./server --stdio": true, "examples/docs.yaml": false, "docs-attachments": false, "127.0.0.1:8080": false, "": false,
	} {
		if got := LooksLike(in); got != want {
			t.Errorf("LooksLike(%q) = %v, want %v", in, got, want)
		}
	}
}

// FuzzSuggest: whatever the text, a suggestion is a target Parse accepts.
func FuzzSuggest(f *testing.F) {
	for _, s := range []string{"htp://h:1/mcp", "127.0.0.1:1", "localhost:8080/x", "[::1]:9", "x://", "ttp://a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if fix := Suggest(s); fix != "" {
			if _, err := Parse(fix); err != nil {
				t.Fatalf("Suggest(%q) = %q, which Parse refuses: %v", s, fix, err)
			}
		}
	})
}
