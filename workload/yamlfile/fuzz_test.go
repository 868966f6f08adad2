package yamlfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/workload"
)

// FuzzParse: whatever the bytes, Parse returns a workload or an *Error,
// never panics, and says the same thing twice; what it accepts validates and
// plans (or fails to plan with an *Error) and its turns can be drawn.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"testdata/*/*.yaml", "../../scenarios/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse("f.yaml", data)
		var e *workload.Error
		if err != nil {
			if w != nil || !errors.As(err, &e) {
				t.Fatalf("Parse = %v, %v; want nil and an *Error", w, err)
			}
			if _, again := Parse("f.yaml", data); again.Error() != err.Error() {
				t.Fatalf("Parse is not deterministic: %q then %q", err, again)
			}
			checkSyntaxPlace(t, data, err)
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("Parse accepted what Validate refuses: %v", err)
		}
		p, err := workload.NewSampling(w)
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

// checkSyntaxPlace fails t unless every YAML syntax error among err's is
// placed in the file: a line of it (the one after the last, for a file
// that ends too soon) and, when located, a column on that line.
func checkSyntaxPlace(t *testing.T, data []byte, err error) {
	lines := bytes.Split(data, []byte("\n"))
	var es workload.Errors
	var one *workload.Error
	switch {
	case errors.As(err, &es):
	case errors.As(err, &one):
		es = workload.Errors{one}
	}
	for _, e := range es {
		if !strings.HasPrefix(e.Msg, "bad YAML") || e.Line == 0 {
			continue
		}
		if e.Line < 1 || e.Line > len(lines)+1 || e.Col < 0 {
			t.Fatalf("%v: not a place in a file of %d lines", e, len(lines))
		}
		if e.Line <= len(lines) && e.Col > utf8.RuneCount(lines[e.Line-1])+1 {
			t.Fatalf("%v: column past the end of line %d (%q)", e, e.Line, lines[e.Line-1])
		}
	}
}
