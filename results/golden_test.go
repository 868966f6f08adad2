package results

import (
	"testing"
	"time"

	"github.com/readbench/readbench/internal/golden"
)

// The documents Build makes of the test fixtures, pinned byte for byte in
// testdata: a change to the document shows up here as a diff to review.
// They are also the input of package report's tests (which read
// ../results/testdata): report renders documents and never builds one, so
// its golden reports follow exactly what Build makes, and no copy of the
// fixture lives there.
func TestDocumentsGolden(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(testing.TB) *Result
	}{
		{"result.json", func(t testing.TB) *Result { return fixture(t, false) }},
		{"troubled.json", func(t testing.TB) *Result { return fixture(t, true) }},
		{"timeline.json", timelineFixture},
		// A pair with a caveat (CPU pressure 0.7, lag 30ms of a 230ms read
		// p99) and one withheld (the stalled run: pressure 0.93, lag
		// 120ms of a 571ms read p99).
		{"contended.json", func(t testing.TB) *Result {
			return contendedRun(t, 200*time.Millisecond, 30*time.Millisecond, 0, pressureOf(0.7))
		}},
		{"withheld.json", func(t testing.TB) *Result {
			return contendedRun(t, 451*time.Millisecond, 120*time.Millisecond, 0, pressureOf(0.93))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.build(t).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, c.name, "the document Build makes (report's goldens may follow)", got)
		})
	}
}
