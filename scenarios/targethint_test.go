package scenarios

import (
	"strings"
	"testing"
)

// TestLoadTargetHint: a target mistyped where the workload goes is
// answered with the target meant and the flag that takes it; a name that
// is no target gets no guess.
func TestLoadTargetHint(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"127.0.0.1:18090", "did you mean --target http://127.0.0.1:18090/mcp?"},
		{"localhost:18090/mcp", "did you mean --target http://localhost:18090/mcp?"},
		{"htp://127.0.0.1:18090/mcp", "did you mean --target http://127.0.0.1:18090/mcp?"},
		{"no-such", ""},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			_, err := Load(tc.arg)
			if err == nil {
				t.Fatalf("Load(%q) loaded it", tc.arg)
			}
			if tc.want == "" && strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load(%q): %v\nwant %q", tc.arg, err, tc.want)
			}
		})
	}
}
