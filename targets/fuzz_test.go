package targets

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParse: whatever the text, Parse never panics, and what it accepts
// passes Check and reads back from its String to the same target.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "embedded", "stdio:./server --stdio", `stdio:a "b c" 'd'`, `stdio:a\ b`,
		"http://127.0.0.1:8080/mcp", "sse+https://h/sse", "https://[::1]:8443/mcp?x=1#f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := Parse(s)
		if err != nil {
			return
		}
		if err := tg.Check(); err != nil {
			t.Fatalf("Parse(%q) = %#v, which Check refuses: %v", s, tg, err)
		}
		back, err := Parse(tg.String())
		if err != nil || back.Kind != tg.Kind || back.Address != tg.Address || !slices.Equal(back.Argv, tg.Argv) {
			t.Fatalf("Parse(%q) = %#v; its text %q reads back as %#v, %v", s, tg, tg.String(), back, err)
		}
	})
}

// FuzzRedactSecrets: whatever the stdio target, masking its secrets keeps
// its words (the same count, so no quote is broken), every word that is a
// secret NAME=value becomes NAME=xxxxx (an authorization scheme kept;
// wholly masked as a secret flag's value),
// the word after a secret --flag holds the mask, and masking twice
// changes nothing.
func FuzzRedactSecrets(f *testing.F) {
	for _, s := range []string{"stdio:env MYSQL_PASS=hunter2 node s.js", `stdio:env "TOKEN=a\"b c" srv`,
		`stdio:env 'API_KEY=a b' srv`, `stdio:srv --api-key=x\ y`, "stdio:srv https://u:p@h/x?token=t&a=b",
		"stdio:srv --auth Bearer x --token \"a b\" -p 8080 -p s", "stdio:npx -p pkg srv --header \"Authorization: Basic x\"",
		`stdio:sh -c "srv --api-key='k1' -v"`, `stdio:sh -c 'cd / && PASS="a b" srv'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := Parse(s)
		if err != nil || tg.Kind != Stdio {
			return
		}
		red := tg.Redacted()
		if again := RedactSecrets(red); again != red {
			t.Fatalf("masked twice %q -> %q -> %q", tg.String(), red, again)
		}
		back, err := Parse(red)
		if err != nil || len(back.Argv) != len(tg.Argv) {
			t.Fatalf("%q masked as %q, which reads back as %q, %v", tg.String(), red, back.Argv, err)
		}
		for i, a := range tg.Argv {
			name, value, ok := strings.Cut(a, "=")
			// A secret word is NAME=xxxxx, or wholly masked when it is
			// itself the value of a secret flag (-p ikey=abc: the password
			// is the whole word).
			if ok && value != "" && SecretSetting(name) && secretWord.MatchString(name) &&
				back.Argv[i] != name+"="+maskValue(value) && back.Argv[i] != maskValue(a) {
				t.Fatalf("%q masked as %q: word %q is %q", tg.String(), red, a, back.Argv[i])
			}
			if i+1 < len(tg.Argv) && strings.HasPrefix(a, "--") && secretWord.MatchString(a) && SecretSetting(a) &&
				!strings.HasPrefix(tg.Argv[i+1], "--") && !strings.Contains(back.Argv[i+1], Masked) && !bareScheme(tg.Argv[i+1]) {
				t.Fatalf("%q masked as %q: the value %q of %s is %q", tg.String(), red, tg.Argv[i+1], a, back.Argv[i+1])
			}
		}
	})
}
