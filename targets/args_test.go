package targets

import (
	"slices"
	"testing"
)

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

// TestStdioTextRoundTrip: a word with a Unicode space at either end
// survives a target's text, which Parse trims. (go-shellquote's Join
// leaves \f, U+0085, U+00A0 and U+2028 bare, and loses them here.)
func TestStdioTextRoundTrip(t *testing.T) {
	for _, argv := range [][]string{
		{"srv", "\fx"}, {"srv", "x\u0085"}, {"srv", "\u00a0"}, {"srv", "\u2028y"},
	} {
		tg := Target{Kind: Stdio, Argv: argv}
		back, err := Parse(tg.String())
		if err != nil || !slices.Equal(back.Argv, argv) {
			t.Errorf("Parse(%q) = %q, %v; want %q", tg.String(), back.Argv, err, argv)
		}
	}
}

// TestSplitArgsNoShell: there is no shell, so what a shell would treat
// specially is kept (go-shellquote, google/shlex and mvdan.cc/sh each
// read one of these otherwise).
func TestSplitArgsNoShell(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`a\`, []string{`a\`}},                  // a trailing backslash is itself
		{`"a\$b"`, []string{`a\$b`}},            // only \" and \\ escape in "..."
		{"srv #x", []string{"srv", "#x"}},       // no comments
		{"a\\\nb", []string{"a\nb"}},            // no line continuation
		{"srv $HOME", []string{"srv", "$HOME"}}, // no expansion
	} {
		got, err := SplitArgs(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SplitArgs(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
