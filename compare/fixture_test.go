package compare

import (
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// loadFixture is the result document results' tests build and keep as
// their golden (420 reads scheduled, 10 errors, 10.5 turns/s over 40 s).
func loadFixture(t *testing.T) *results.Result { return fixture(t, false) }

// fixture is results' golden run, or with troubled its troubled one.
func fixture(t *testing.T, troubled bool) *results.Result {
	t.Helper()
	name := "../results/testdata/result.json"
	if troubled {
		name = "../results/testdata/troubled.json"
	}
	r, err := results.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// authed is a run of the golden's workload with tokens: fresh reads on a
// fresh token at 40 ms, later ones at 2 ms, three token requests.
func authed(t *testing.T, fresh, later int) *results.Result {
	t.Helper()
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}})
	rec.EnableAuth()
	rec.Schedule(fresh + later)
	for i := range fresh + later {
		lat := 2 * time.Millisecond
		if i < fresh {
			lat = 40 * time.Millisecond
		}
		rec.Read(stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: lat, Service: lat, FreshToken: i < fresh})
	}
	p := rec.Phase()
	for _, q := range []stats.TokenRequest{{Reason: "initial", Took: 80 * time.Millisecond}, {Reason: "expiring", Took: 20 * time.Millisecond}} {
		p.Auth.Request(q)
	}
	w := fixture(t, false).Workload
	started := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	r, err := results.Build(results.Meta{ToolName: "readbench", Started: started, Ended: started.Add(50 * time.Second), Measured: 50 * time.Second}, &w, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// figure is v as a document's optional figure.
func figure(v float64) *float64 { return &v }
