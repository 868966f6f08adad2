package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/results"
)

// TestTableFitsTheWidth: the brief and the full terminal report of every
// kind of result fit the width they are laid out for — 60, 80 (a pane,
// or a pipe) and 120 columns — every line of text wrapped and every table
// too wide for it drawn a block per row; and the report's last line is
// still the verdict.
func TestTableFitsTheWidth(t *testing.T) {
	kinds := map[string]func(testing.TB) *results.Result{
		"result":       func(t testing.TB) *results.Result { return withSlowReads(fixture(t, false)) },
		"troubled":     func(t testing.TB) *results.Result { return withSlowReads(fixture(t, true)) },
		"everything":   everything,
		"thresholds":   withThresholds,
		"contended":    func(t testing.TB) *results.Result { return document(t, "contended.json") },
		"timeline":     func(t testing.TB) *results.Result { return document(t, "timeline.json") },
		"listeners":    func(t testing.TB) *results.Result { return listened(t, 3, 2, true) },
		"cancelled":    cancelledRun,
		"churned":      churned,
		"withheld":     func(t testing.TB) *results.Result { return document(t, "withheld.json") },
		"slow hostile": func(t testing.TB) *results.Result { return withSlowReads(fixture(t, true)) },
	}
	for name, of := range kinds {
		r := of(t)
		for _, width := range []int{60, 80, 120} {
			o := Options{Width: width}
			for view, write := range map[string]func(*bytes.Buffer) error{
				"brief": func(b *bytes.Buffer) error { return o.WriteTable(b, r) },
				"full":  func(b *bytes.Buffer) error { return o.WriteFullTable(b, r) },
			} {
				var b bytes.Buffer
				if err := write(&b); err != nil {
					t.Fatalf("%s %s at %d: %v", name, view, width, err)
				}
				lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
				for i, l := range lines {
					if n := utf8.RuneCountInString(l); n > width {
						t.Errorf("%s, %s report at %d columns: line %d is %d columns: %q", name, view, width, i+1, n, l)
					}
				}
				if last := lines[len(lines)-1]; !strings.HasPrefix(endingLine(r), strings.TrimSuffix(last, "…")) {
					t.Errorf("%s, %s report at %d columns ends with %q, not the verdict %q", name, view, width, last, endingLine(r))
				}
			}
		}
	}
}
