package workload

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzParse: whatever the bytes, Parse returns a workload or an *Error,
// never panics, and says the same thing twice; what it accepts validates and
// plans (or fails to plan with an *Error) and its turns can be drawn.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"testdata/*/*.yaml", "../scenarios/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(planYAML))
	f.Add([]byte(resolveYAML))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse("f.yaml", data)
		var e *Error
		if err != nil {
			if w != nil || !errors.As(err, &e) {
				t.Fatalf("Parse = %v, %v; want nil and an *Error", w, err)
			}
			if _, again := Parse("f.yaml", data); again.Error() != err.Error() {
				t.Fatalf("Parse is not deterministic: %q then %q", err, again)
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("Parse accepted what Validate refuses: %v", err)
		}
		p, err := NewPlan(w)
		if err != nil {
			if !errors.As(err, &e) {
				t.Fatalf("NewPlan error %v is not an *Error", err)
			}
			return
		}
		if w.Turn.Attachments.Max() > 64 {
			return // drawing thousands of reads per turn only slows the fuzzer
		}
		for i := range uint64(3) {
			a, b := p.Turn(i), p.Turn(i)
			if !slices.Equal(a, b) || len(a) == 0 || len(a) > w.Turn.Attachments.Max() {
				t.Fatalf("turn %d: %v then %v", i, a, b)
			}
		}
	})
}
