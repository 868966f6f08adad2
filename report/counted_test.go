package report

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestCountsAgreeWithTheirNouns: one of a thing is singular in every
// sentence that counts it ("1 turn was cut", "in 1 second"), many are
// plural, and the timeline says "achieved below asked" in words, not
// "achieved < asked in 1 s: 4" (issue 46, item 13).
func TestCountsAgreeWithTheirNouns(t *testing.T) {
	behind := func(secs ...int) []results.Second {
		var tl []results.Second
		for i := range 8 {
			tl = append(tl, results.Second{T: i, Asked: 10, Achieved: 10, Reads: 4})
		}
		for _, s := range secs {
			tl[s].Achieved = 9
		}
		return tl
	}
	for _, c := range []struct {
		name, got string
		want      []string
		never     []string
	}{
		{"one read and one turn cut", lowerBoundsNote(&results.Result{Read: stats.Latency{LowerBounds: 2}, Turn: stats.Latency{LowerBounds: 1}}),
			[]string{"2 reads and 1 turn were cut"}, []string{"1 turns"}},
		{"one turn cut", lowerBoundsNote(&results.Result{Turn: stats.Latency{Count: 3, LowerBounds: 1}}),
			[]string{"1 turn was cut or dropped and is recorded"}, []string{"1 turns", "were"}},
		{"the full report's note on one turn", strings.Join(latencyNotes(lowerBoundFixture(t, 1)), " "),
			[]string{"1 of the turns was cut or dropped and is recorded"}, []string{"turns were"}},
		{"the full report's note on two turns", strings.Join(latencyNotes(lowerBoundFixture(t, 2)), " "),
			[]string{"2 of the turns were cut or dropped and are recorded"}, nil},
		{"one second behind", timelineNote(behind(4)), []string{"achieved below asked in 1 second (second 4)"}, []string{"<", "1 s:"}},
		{"two seconds behind", timelineNote(behind(4, 6)), []string{"achieved below asked in 2 seconds (seconds 4, 6)"}, []string{"<"}},
		{"a tile of one turn", latencyTile(&results.Result{}, "turn", "turn.", stats.Latency{Count: 1}, 0, counted(1, "turn", "turns")).Sub,
			[]string{"1 turn"}, []string{"1 turns"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, w := range c.want {
				if !strings.Contains(c.got, w) {
					t.Errorf("%q does not say %q", c.got, w)
				}
			}
			for _, n := range c.never {
				if strings.Contains(c.got, n) {
					t.Errorf("%q says %q", c.got, n)
				}
			}
		})
	}
}

// lowerBoundFixture is the clean fixture with n turns recorded at the cut.
func lowerBoundFixture(t *testing.T, n int64) *results.Result {
	r := fixture(t, false)
	r.Turn.LowerBounds = n
	return r
}
