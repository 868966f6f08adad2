package workload

import (
	"slices"
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Target
		str  string // String(); "" = same as in
		err  string
	}{
		{"", Target{Kind: TargetEmbedded}, "embedded", ""},
		{"embedded", Target{Kind: TargetEmbedded}, "", ""},
		{" Embedded ", Target{Kind: TargetEmbedded}, "embedded", ""},
		{"stdio:./server --stdio", Target{Kind: TargetStdio, Argv: []string{"./server", "--stdio"}}, "", ""},
		{"stdio:  node  server.js  ", Target{Kind: TargetStdio, Argv: []string{"node", "server.js"}}, "stdio:node server.js", ""},
		{`stdio:python -c 'print("hi there")'`, Target{Kind: TargetStdio, Argv: []string{"python", "-c", `print("hi there")`}}, "", ""},
		{`stdio:srv "a b" "say \"x\"" 'it''s'`, Target{Kind: TargetStdio, Argv: []string{"srv", "a b", `say "x"`, "its"}}, `stdio:srv 'a b' 'say "x"' its`, ""},
		{`stdio:srv a\ b "" c`, Target{Kind: TargetStdio, Argv: []string{"srv", "a b", "", "c"}}, `stdio:srv 'a b' '' c`, ""},
		{`stdio:srv "it's \\ here"`, Target{Kind: TargetStdio, Argv: []string{"srv", `it's \ here`}}, `stdio:srv "it's \\ here"`, ""},
		{"stdio:srv $HOME | cat", Target{Kind: TargetStdio, Argv: []string{"srv", "$HOME", "|", "cat"}}, "", ""}, // no shell
		{"stdio:", Target{}, "", "needs a command"},
		{"stdio:   ", Target{}, "", "needs a command"},
		{"stdio:'' x", Target{}, "", "needs a command"},
		{`stdio:srv "open`, Target{}, "", "unterminated double quote"},
		{"stdio:srv 'open", Target{}, "", "unterminated single quote"},
		{"http://127.0.0.1:8080/mcp", Target{Kind: TargetHTTP, Address: "http://127.0.0.1:8080/mcp"}, "", ""},
		{"https://staging.example.com/mcp", Target{Kind: TargetHTTP, Address: "https://staging.example.com/mcp"}, "", ""},
		{"sse+http://127.0.0.1:8080/sse", Target{Kind: TargetSSE, Address: "http://127.0.0.1:8080/sse"}, "", ""},
		{"sse+https://h/sse", Target{Kind: TargetSSE, Address: "https://h/sse"}, "", ""},
		{"range+http://127.0.0.1:8080/files/", Target{Kind: TargetFiles, Address: "http://127.0.0.1:8080/files/"}, "", ""},
		{"range+https://docs.example.com/raw/", Target{Kind: TargetFiles, Address: "https://docs.example.com/raw/"}, "", ""},
		{"range+http://127.0.0.1:8080/files", Target{}, "", "end it with /"},
		{"range+http:///files/", Target{}, "", "no host"},
		{"http:///mcp", Target{}, "", "no host"},
		{"http://[::1/mcp", Target{}, "", "bad target"},
		{"sse+ftp://h/sse", Target{}, "", "unknown target"},
		{"ws://h/mcp", Target{}, "", "unknown target"},
		{"./server", Target{}, "", "want embedded, stdio:CMD ARG..."},
	} {
		got, err := ParseTarget(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseTarget(%q) = %v, %v; want an error about %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseTarget(%q): %v", c.in, err)
			continue
		}
		if got.Kind != c.want.Kind || got.Address != c.want.Address || !slices.Equal(got.Argv, c.want.Argv) {
			t.Errorf("ParseTarget(%q) = %#v, want %#v", c.in, got, c.want)
		}
		str := c.str
		if str == "" {
			str = c.in
		}
		if got.String() != str {
			t.Errorf("ParseTarget(%q).String() = %q, want %q", c.in, got.String(), str)
		}
		back, err := ParseTarget(got.String())
		if err != nil || back.Kind != got.Kind || back.Address != got.Address || !slices.Equal(back.Argv, got.Argv) {
			t.Errorf("ParseTarget(%q) does not round-trip: %#v, %v", got.String(), back, err)
		}
	}
}

func TestJoinArgsRoundTrip(t *testing.T) {
	for _, argv := range [][]string{
		{"a"}, {"a b", "c"}, {""}, {`'`}, {`"`}, {`\`}, {`a'b"c\d`}, {"tab\there", "new\nline"}, {"ünï", "✓"},
	} {
		back, err := SplitArgs(JoinArgs(argv))
		if err != nil || !slices.Equal(back, argv) {
			t.Errorf("SplitArgs(JoinArgs(%q)) = %q (%q), %v", argv, back, JoinArgs(argv), err)
		}
	}
}

func TestTargetText(t *testing.T) {
	var tg Target
	if err := tg.UnmarshalText([]byte("sse+http://h:1/sse")); err != nil || tg.Kind != TargetSSE {
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
		kind TargetKind
		want string
	}{{"", "stdio"}, {TargetEmbedded, "stdio"}, {TargetStdio, "stdio"}, {TargetHTTP, string(TargetHTTP)}, {TargetSSE, string(TargetSSE)}} {
		if got := (Target{Kind: c.kind}).Transport(); got != c.want {
			t.Errorf("Target{Kind: %q}.Transport() = %q, want %q", c.kind, got, c.want)
		}
	}
}

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
