package driver

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// TestProgressCarriesTheLiveFigures: each second's Progress says the
// rate the schedule asks for (this shard's share of it) and the current
// phase's figures (outcomes, bytes, percentiles), and the read p99 of the
// last whole second, taken from the recorder of that second's phase
// (the second tick, at 2 s, is the measured phase's, its second before
// the warmup's).
func TestProgressCarriesTheLiveFigures(t *testing.T) {
	hs := peertest.ServeLocal(t, &peertest.Document{Data: peertest.DocBytes(2_000), Delay: 2 * time.Millisecond})
	w, err := yamlfile.Parse("progress.yaml", []byte(fmt.Sprintf(`
name: progress
sessions: 2
target: %q
load: {rate: 40/s, warmup: 2s, duration: 2s}
turn: {attachments: 1, read_timeout: 5s, deadline: 5s}
mix:
  - {class: doc, uri: "sim:///doc.txt"}
`, "range+"+hs.URL+"/files/")))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []stats.Progress
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = measure(ctx, Options{Workload: w, Segment: workload.Segment{K: 1, N: 2}, Progress: func(p stats.Progress) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) < 3 {
		t.Fatalf("%d progress calls in a 4 s run, want 3", len(got))
	}
	for i, p := range got {
		if p.Listening != nil {
			t.Errorf("tick %d: listeners' state %+v in a run without listeners", i+1, p.Listening)
		}
	}
	for i, p := range got[:3] {
		if p.Asked != 20 {
			t.Errorf("second %d: asked %v/s, want 20 (half of 40/s: this shard's share)", i+1, p.Asked)
		}
		if p.Phase.SecondP99 <= 0 {
			t.Errorf("second %d (%v): no p99 of the second before, though it had reads", i+1, p.Elapsed)
		}
	}
	warm, measured := got[0], got[2]
	if !warm.Warmup || warm.Phase.Outcomes[stats.OK] == 0 || warm.Phase.WireBytes == 0 || warm.Phase.Read.P99 <= 0 {
		t.Errorf("the first second is the warmup's, with its reads: %+v", warm)
	}
	if measured.Warmup || measured.Phase.Outcomes.Total() == 0 || measured.Phase.Outcomes.Total() >= measured.Reads {
		t.Errorf("the third second counts the measured phase only (%d reads of %d in all): %+v",
			measured.Phase.Outcomes.Total(), measured.Reads, measured)
	}
	if p := measured.Phase; p.Read.P50 <= 0 || p.Read.P50 > p.Read.P90 || p.Read.P90 > p.Read.P99 ||
		p.Turn.P99 <= 0 || p.Lag.P99 <= 0 || p.DiskBytes != 2_000*p.Outcomes[stats.OK] {
		t.Errorf("measured figures: %+v", p)
	}
}

// TestProgressGoesOnThroughTheDrain: after the schedule the run waits
// for its turns in flight, and Progress says so (Draining) at once, then
// each second until they end, with no rate asked; the seconds before say
// whether their SecondP99 is the warmup's.
func TestProgressGoesOnThroughTheDrain(t *testing.T) {
	hs := peertest.ServeLocal(t, &peertest.Document{Data: peertest.DocBytes(100), Delay: 1700 * time.Millisecond})
	w, err := yamlfile.Parse("drain.yaml", []byte(fmt.Sprintf(`
name: drain
target: %q
load: {rate: 4/s, warmup: 2s, duration: 2s}
turn: {attachments: 1, read_timeout: 5s, deadline: 5s}
mix:
  - {class: doc, uri: "sim:///doc.txt"}
`, "range+"+hs.URL+"/files/")))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []stats.Progress
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err = measure(ctx, Options{Workload: w, Progress: func(p stats.Progress) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, p)
	}}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	first := -1
	for i, p := range got {
		if p.Draining && first < 0 {
			first = i
		}
		if first >= 0 && (!p.Draining || p.Asked != 0 || p.Warmup) {
			t.Errorf("progress %d (%v) after the drain began: %+v", i, p.Elapsed, p)
		}
	}
	if first < 1 || len(got)-first < 2 {
		t.Fatalf("want ticks of the schedule, then 2 or more of the drain (its turns last 1.7 s): %d of %d from %d", len(got)-first, len(got), first)
	}
	if d := got[first]; d.Elapsed > d.Total+300*time.Millisecond || d.InFlight == 0 {
		t.Errorf("the drain's first progress is sent as it begins, turns in flight: %v of %v, %d in flight", d.Elapsed, d.Total, d.InFlight)
	}
	if p := got[0]; !p.SecondWarmup || !p.Warmup {
		t.Errorf("the first second is the warmup's: %+v", p)
	}
	if p := got[first-1]; p.SecondWarmup {
		t.Errorf("the second before the drain is measured: %+v", p)
	}
}
