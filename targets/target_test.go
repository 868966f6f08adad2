package targets

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Target
		str  string // String(); "" = same as in
		err  string
	}{
		{"", Target{Kind: Embedded}, "embedded", ""},
		{"embedded", Target{Kind: Embedded}, "", ""},
		{" Embedded ", Target{Kind: Embedded}, "embedded", ""},
		{"stdio:./server --stdio", Target{Kind: Stdio, Argv: []string{"./server", "--stdio"}}, "", ""},
		{"stdio:  node  server.js  ", Target{Kind: Stdio, Argv: []string{"node", "server.js"}}, "stdio:node server.js", ""},
		{`stdio:python -c 'print("hi there")'`, Target{Kind: Stdio, Argv: []string{"python", "-c", `print("hi there")`}}, "", ""},
		{`stdio:srv "a b" "say \"x\"" 'it''s'`, Target{Kind: Stdio, Argv: []string{"srv", "a b", `say "x"`, "its"}}, `stdio:srv 'a b' 'say "x"' its`, ""},
		{`stdio:srv a\ b "" c`, Target{Kind: Stdio, Argv: []string{"srv", "a b", "", "c"}}, `stdio:srv 'a b' '' c`, ""},
		{`stdio:srv "it's \\ here"`, Target{Kind: Stdio, Argv: []string{"srv", `it's \ here`}}, `stdio:srv "it's \\ here"`, ""},
		{"stdio:srv $HOME | cat", Target{Kind: Stdio, Argv: []string{"srv", "$HOME", "|", "cat"}}, "", ""}, // no shell
		{"stdio:", Target{}, "", "needs a command"},
		{"stdio:   ", Target{}, "", "needs a command"},
		{"stdio:'' x", Target{}, "", "needs a command"},
		{`stdio:srv "open`, Target{}, "", "unterminated double quote"},
		{"stdio:srv 'open", Target{}, "", "unterminated single quote"},
		{"http://127.0.0.1:8080/mcp", Target{Kind: HTTP, Address: "http://127.0.0.1:8080/mcp"}, "", ""},
		{"https://staging.example.com/mcp", Target{Kind: HTTP, Address: "https://staging.example.com/mcp"}, "", ""},
		{"sse+http://127.0.0.1:8080/sse", Target{Kind: SSE, Address: "http://127.0.0.1:8080/sse"}, "", ""},
		{"sse+https://h/sse", Target{Kind: SSE, Address: "https://h/sse"}, "", ""},
		{"range+http://127.0.0.1:8080/files/", Target{Kind: Files, Address: "http://127.0.0.1:8080/files/"}, "", ""},
		{"range+https://docs.example.com/raw/", Target{Kind: Files, Address: "https://docs.example.com/raw/"}, "", ""},
		{"range+http://127.0.0.1:8080/files", Target{}, "", "end it with /"},
		{"range+http:///files/", Target{}, "", "no host"},
		{"http:///mcp", Target{}, "", "no host"},
		{"http://[::1/mcp", Target{}, "", "bad target"},
		{"sse+ftp://h/sse", Target{}, "", "unknown target"},
		{"ws://h/mcp", Target{}, "", "unknown target"},
		{"./server", Target{}, "", "want embedded, stdio:CMD ARG..."},
	} {
		got, err := Parse(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Parse(%q) = %v, %v; want an error about %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got.Kind != c.want.Kind || got.Address != c.want.Address || !slices.Equal(got.Argv, c.want.Argv) {
			t.Errorf("Parse(%q) = %#v, want %#v", c.in, got, c.want)
		}
		str := c.str
		if str == "" {
			str = c.in
		}
		if got.String() != str {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got.String(), str)
		}
		back, err := Parse(got.String())
		if err != nil || back.Kind != got.Kind || back.Address != got.Address || !slices.Equal(back.Argv, got.Argv) {
			t.Errorf("Parse(%q) does not round-trip: %#v, %v", got.String(), back, err)
		}
	}
}

func TestTargetText(t *testing.T) {
	var tg Target
	if err := tg.UnmarshalText([]byte("sse+http://h:1/sse")); err != nil || tg.Kind != SSE {
		t.Fatalf("UnmarshalText: %v %v", tg, err)
	}
	if b, _ := tg.MarshalText(); string(b) != "sse+http://h:1/sse" {
		t.Errorf("MarshalText = %q", b)
	}
	if (Target{}).String() != "embedded" {
		t.Errorf("the zero Target is not embedded")
	}
}

// TestTargetTransport: results record the embedded server as the stdio
// child it is.
func TestTargetTransport(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		want string
	}{{"", "stdio"}, {Embedded, "stdio"}, {Stdio, "stdio"}, {HTTP, string(HTTP)}, {SSE, string(SSE)}} {
		if got := (Target{Kind: c.kind}).Transport(); got != c.want {
			t.Errorf("Target{Kind: %q}.Transport() = %q, want %q", c.kind, got, c.want)
		}
	}
}

// TestParseErrorsHideSecrets: a target Parse refuses is quoted in its
// error with its secrets masked, since the message lands in CI logs
// (issue 47, item 18: a bad target URL echoed its password).
func TestParseErrorsHideSecrets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://u:pw-1@[::1", `bad target "http://u:xxxxx@[::1": missing ']' in host`},
		{"http://127.0.0.1:%zz/mcp?token=pw-2", `bad target "http://127.0.0.1:%zz/mcp?token=xxxxx"`},
		{"http//u:pw-3@h/mcp", `unknown target "http//u:xxxxx@h/mcp"`},
		{"ftp://u:pw-4@h/", `unknown target "ftp://u:xxxxx@h/"`},
		{"http:///mcp?api_key=pw-5", `bad target "http:///mcp?api_key=xxxxx": the URL has no host`},
		{`stdio:srv --token "pw-6`, `bad target "stdio:srv --token \"xxxxx": unterminated double quote`},
		{`stdio:srv --password pw-7 'x`, `bad target "stdio:srv --password xxxxx 'x": unterminated single quote`},
		{"range+http://u:pw-8@h/files", `bad target "range+http://u:xxxxx@h/files": a range+http target`},
		{`stdio:node --api-key="pw-10 unclosed`, `unterminated double quote`},
		{`stdio:node API_KEY='pw-11 x`, `unterminated single quote`},
	} {
		_, err := Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "pw-") {
			t.Errorf("Parse(%q) = %v, want an error with %s and no secret", c.in, err, c.want)
		}
	}
	if err := (Target{Kind: HTTP, Address: "ftp://u:pw-9@h/"}).Check(); err == nil || strings.Contains(err.Error(), "pw-9") {
		t.Errorf("Check = %v, want an error without the password", err)
	}
}
