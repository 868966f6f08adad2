package targets

import (
	"slices"
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
