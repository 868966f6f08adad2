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
