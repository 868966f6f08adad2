package yamlfile

import (
	"errors"
	"testing"

	"github.com/readbench/readbench/workload"
)

// TestOverIndentedKey: a key indented further than the keys of its
// mapping is reported at that key, in plain words. The YAML parser
// reads the value above it and the key as one text running over two
// lines and places its "mapping value is not allowed in this context" on
// the line above, at the value: one line early, in the library's words.
func TestOverIndentedKey(t *testing.T) {
	mix := "mix:\n  - {class: a, mime: text/plain, size: 1KiB}\n"
	for _, tc := range []struct {
		name, data string
		line, col  int
	}{
		{"in a section", "name: x\nload:\n  rate: 10/s\n    duration: 2s\n" + mix, 4, 5},
		{"at the top", "name: x\nsessions: 2\n  seed: 4\n" + mix, 3, 3},
		{"after a blank line and a comment", "name: x\nload:\n  rate: 10/s\n\n  # the length\n     duration: 2s\n" + mix, 6, 6},
		{"the last key of a section", "name: x\nload:\n  rate: 10/s\n  duration: 2s\n     warmup: 1s\n" + mix, 5, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("w.yaml", []byte(tc.data))
			var e *workload.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			const want = "bad YAML: this key is indented further than the key above it: keys of one mapping start in the same column (a nested mapping goes under a key with no value)"
			if e.Line != tc.line || e.Col != tc.col || e.Msg != want {
				t.Errorf("got %d:%d %q\nwant %d:%d %q", e.Line, e.Col, e.Msg, tc.line, tc.col, want)
			}
		})
	}
}
