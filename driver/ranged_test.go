package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload/yamlfile"
)

// targetSession is a session with a target, closed when the test ends.
func targetSession(t *testing.T, target string) *client.Session {
	t.Helper()
	tg, err := targets.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := client.Connect(context.Background(), client.Dial{Target: tg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// runWorkload parses a workload and runs it, bounded by 30 seconds.
func runWorkload(t *testing.T, yaml string) *measurements {
	t.Helper()
	w, err := yamlfile.Parse("ranged.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := measure(ctx, Options{Workload: w})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestRangedRunCutByDeadline: a ranged fetch whose parts are slow is cut by
// its turn's deadline: cancelled, recorded at the cut as a lower bound,
// never as a fast read; the parts that did arrive are kept apart.
func TestRangedRunCutByDeadline(t *testing.T) {
	hs := peertest.ServeLocal(t, &peertest.Document{Data: peertest.DocBytes(50_000), Delay: 120 * time.Millisecond})
	rep := runWorkload(t, fmt.Sprintf(`
name: ranged
target: %q
load: {model: closed, concurrency: 1, turns: 2}
turn: {attachments: 1, read_timeout: 10s, deadline: 300ms}
mix:
  - {class: log, uri: "sim:///doc.txt", ranged: {chunk: 10000}}
`, "range+"+hs.URL+"/files/"))
	run := rep.MeasuredPhase
	if run.Outcomes[stats.Cancelled] != 2 || run.ReadLowerBounds != 2 {
		t.Fatalf("outcomes %v, lower bounds %d: want 2 cancelled at the cut", run.Outcomes, run.ReadLowerBounds)
	}
	if q := run.Read.Quantile(50); q < 300*time.Millisecond {
		t.Errorf("cut reads recorded at %v, before the 300ms deadline", q)
	}
	if n := run.Chunk.Count(); n < 2 || n > 6 {
		t.Errorf("%d chunk latencies recorded; want the 2 or so parts per fetch that beat the deadline", n)
	}
	if rep.Meta.LateObservable {
		t.Error("late answers claimed observable on plain HTTP")
	}
}

// TestRangedRunHTTP: a whole run of a ranged class and a whole class on a
// range+http target: every read ok, chunk latency apart from read latency,
// wire = disk (raw bytes), first usable byte before the last.
func TestRangedRunHTTP(t *testing.T) {
	hs := peertest.ServeLocal(t, &peertest.Document{Data: peertest.DocBytes(100_000)})
	rep := runWorkload(t, fmt.Sprintf(`
name: ranged
target: %q
load: {model: closed, concurrency: 2, turns: 6}
turn: {attachments: 1, read_timeout: 10s}
mix:
  - {class: chunked, uri: "sim:///doc.txt", ranged: {chunk: 25000}}
  - {class: whole, uri: "sim:///doc.txt"}
`, "range+"+hs.URL+"/files/"))
	run := rep.MeasuredPhase
	if run.Outcomes[stats.OK] != run.Scheduled || run.Scheduled == 0 {
		t.Fatalf("outcomes %v of %d", run.Outcomes, run.Scheduled)
	}
	ch, wh := run.Classes[0], run.Classes[1]
	if n := ch.Outcomes.Total(); ch.Chunk.Count() != 4*n || wh.Chunk.Count() != wh.Outcomes.Total() {
		t.Errorf("chunk latencies: %d for %d ranged reads (want 4 each), %d for %d whole", ch.Chunk.Count(), n, wh.Chunk.Count(), wh.Outcomes.Total())
	}
	for _, c := range run.Classes {
		if c.WireBytes != c.DiskBytes || c.DiskBytes != 100_000*c.Outcomes.Total() {
			t.Errorf("%s: wire %d, disk %d", c.Name, c.WireBytes, c.DiskBytes)
		}
		if c.FirstUsable.Count() != c.Outcomes.Total() || c.FirstUsable.Quantile(50) > c.Latency.Quantile(50) {
			t.Errorf("%s: first usable %v (n=%d) after the whole read %v", c.Name, c.FirstUsable.Quantile(50), c.FirstUsable.Count(), c.Latency.Quantile(50))
		}
	}
	if !strings.Contains(rep.Meta.Target.Address, "range+http://127.0.0.1:") || rep.Meta.Target.Server.Name != "doc-test" {
		t.Errorf("target %+v", rep.Meta.Target)
	}
}
