package results

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// adviceRun builds a 10-second run of 500 turns of four reads against the
// fixture's workload (800ms deadline): complete turns answer at 200ms,
// cut ones answer three reads at 700ms and cut the fourth at the
// deadline, and failing ones answer three internal errors beside one ok
// read. Most reads are ok documents unless most turns fail, so the
// advice has a tail to size on.
func adviceRun(t *testing.T, cut, failing int) *Result {
	t.Helper()
	classes := []stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}, {Name: "screenshot", MIME: "image/png"}, {Name: "renamed-policy"}}
	rec := stats.NewRecorder(classes)
	ok := func(lat time.Duration) stats.ReadSample {
		return stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: lat, Service: lat,
			ByteCounts: stats.ByteCounts{WireBytes: 1400, DiskBytes: 1000}}
	}
	for i := range 500 {
		rec.Schedule(4)
		reads, end, lat := []stats.ReadSample{ok(200 * time.Millisecond), ok(200 * time.Millisecond), ok(200 * time.Millisecond), ok(200 * time.Millisecond)}, stats.TurnComplete, 200*time.Millisecond
		switch {
		case i < cut:
			reads = []stats.ReadSample{ok(700 * time.Millisecond), ok(700 * time.Millisecond), ok(700 * time.Millisecond),
				{Outcome: stats.Cancelled, Sent: true, Latency: 800 * time.Millisecond, LowerBound: true}}
			end, lat = stats.TurnCut, 800*time.Millisecond
		case i < cut+failing:
			e := stats.ReadSample{Outcome: stats.Internal, Answered: true, Sent: true, Latency: 5 * time.Millisecond, Service: 5 * time.Millisecond}
			reads = []stats.ReadSample{ok(200 * time.Millisecond), e, e, e}
		}
		for _, s := range reads {
			rec.Read(s)
		}
		rec.Turn(stats.TurnSample{End: end, Latency: lat, Reads: 4, LowerBound: end == stats.TurnCut})
	}
	r, err := Build(Meta{ToolName: "readbench", ToolVersion: "test", Started: fixtureStart(), Ended: fixtureStart().Add(10 * time.Second),
		AskedRate: 50, Measured: 10 * time.Second}, fixtureWorkload(t), rec.Phase(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAdviceOfAnUnhealthyRun: an overloaded run (the issue's: over half
// of its turns cut, its ok reads plenty) recommends no deadline or
// timeout and says why, where it once recommended 2.00s and 100s sized
// on a server's queue; a failing run says it was failing; a healthy run
// with a few cut turns still gets its recommendation (no wolf cried).
func TestAdviceOfAnUnhealthyRun(t *testing.T) {
	for _, c := range []struct {
		name          string
		cut, failing  int
		health        State
		recommend     bool
		reasonContain string
	}{
		{"overloaded: most turns cut", 270, 0, StateOverloaded, false,
			"No deadline or timeout is recommended: the run was overloaded (54.0% of turns cut at the 800ms deadline; 173 reads/s served of 200 asked)"},
		{"overloaded: a tenth of the turns cut", 50, 0, StateOverloaded, false, "cannot size limits. Rerun at a rate the server holds (readbench capacity finds it)"},
		{"failing: most reads internal errors", 0, 400, StateFailing, false,
			"No deadline or timeout is recommended: the run was failing (60.0% of reads sent failed, all internal: the server failed while reading (-32603): see its log)"},
		{"healthy: a few turns cut", 4, 0, StateHealthy, true, "Deadline "},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := adviceRun(t, c.cut, c.failing)
			a := r.Advice
			all := strings.Join(a.Reasoning, "\n")
			if r.Health.Health != c.health || (a.RecommendedDeadlineMs != nil) != c.recommend || (a.RecommendedTimeoutMs != nil) != c.recommend ||
				!strings.Contains(all, c.reasonContain) {
				d, to := a.Recommended()
				t.Errorf("%s: deadline %v, timeout %v; want a recommendation %v (null otherwise) and %q in\n%s", r.Health.Line,
					d, to, c.recommend, c.reasonContain, all)
			}
			if len(a.Deadlines) == 0 || len(a.Timeouts) == 0 {
				t.Errorf("the candidates are not priced: %+v", a)
			}
		})
	}
}
