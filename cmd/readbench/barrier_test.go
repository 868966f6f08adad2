package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

// barrierWorkload is a short open-model run that three shards split.
const barrierWorkload = `name: barrier-test
sessions: 3
seed: 11
load: {rate: 30/s, warmup: 500ms, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 2s}
mix:
  - {class: doc, weight: 1, mime: text/markdown, size: 4KiB}
`

// shardRun is one shard's exit.
type shardRun struct {
	stderr string
	code   int
}

// runShards starts readbench run for each k in ks, one every gap, and
// waits for them all.
func runShards(t *testing.T, dir string, ks []int, gap time.Duration, args func(k int) []string) map[int]shardRun {
	t.Helper()
	var mu sync.Mutex
	out := map[int]shardRun{}
	var wg sync.WaitGroup
	for i, k := range ks {
		if i > 0 {
			time.Sleep(gap)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, stderr, code := readbench(t, dir, args(k)...)
			mu.Lock()
			out[k] = shardRun{stderr, code}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// TestBarrierStartsShardsTogether: three shards started 1.5 s apart
// against one server begin their schedules within 50 ms of each other, at
// the instant they all computed (the last one's ready time plus the
// margin), record it, and merge to one run. Then the files they left do
// not release a later run's shard in the same folder.
func TestBarrierStartsShardsTogether(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, barrierWorkload)
	url := startServe(t)
	bar := filepath.Join(dir, "barrier")
	const n = 3
	machine := watchMachine()
	runs := runShards(t, dir, []int{1, 2, 3}, 1500*time.Millisecond, func(k int) []string {
		return []string{"run", w, "-q", "--target", url, "--segment", fmt.Sprintf("%d/%d", k, n),
			"--barrier", bar, "--barrier-margin", "1s", "--out", fmt.Sprintf("shard-%d.json", k)}
	})
	for k, r := range runs {
		if r.code != 0 {
			t.Fatalf("shard %d/%d: exit %d: %s", k, n, r.code, r.stderr)
		}
	}
	var shards []*results.Result
	var latestReady, firstBegan, lastBegan time.Time
	for k := 1; k <= n; k++ {
		s, err := results.Load(filepath.Join(dir, fmt.Sprintf("shard-%d.json", k)))
		if err != nil {
			t.Fatal(err)
		}
		b := s.Segment.Barrier
		if b == nil || len(b.Shards) != n || b.Run == "" {
			t.Fatalf("shard %d: segment %+v: want the barrier recorded with its %d shards", k, s.Segment, n)
		}
		shards = append(shards, s)
		if b.Ready.After(latestReady) {
			latestReady = b.Ready.Time
		}
		if firstBegan.IsZero() || b.Began.Before(firstBegan) {
			firstBegan = b.Began.Time
		}
		if b.Began.After(lastBegan) {
			lastBegan = b.Began.Time
		}
	}
	if spread := shards[n-1].Segment.Barrier.Ready.Sub(shards[0].Segment.Barrier.Ready.Time); spread < 2*time.Second {
		t.Errorf("the shards were ready %v apart: the test did not start them seconds apart", spread)
	}
	want := latestReady.Add(time.Second)
	for k, s := range shards {
		b := s.Segment.Barrier
		if b.Run != shards[0].Segment.Barrier.Run {
			t.Errorf("shard %d: run %s, shard 1: %s", k+1, b.Run, shards[0].Segment.Barrier.Run)
		}
		if !b.StartAt.Equal(want) || !s.Started.Equal(want) {
			t.Errorf("shard %d: start_at %v, started %v; want the latest ready time plus the margin, %v", k+1, b.StartAt, s.Started, want)
		}
	}
	// A shard begins when its sleep until start_at ends: on a machine
	// whose CPUs are all taken, waking a process can take a scheduler's
	// slice or more, which is the machine's, not the barrier's. The
	// barrier itself is held exactly above (one start_at for all).
	for _, s := range shards {
		machine.result(map[string]any{"host": map[string]any{"cpu_pressure": derefOr(s.Host.CPUPressure)}})
	}
	switch d := lastBegan.Sub(firstBegan); {
	case d <= 50*time.Millisecond:
	case d <= 500*time.Millisecond && machine.Busy():
		t.Logf("the shards' schedules began %v apart on a busy machine (%s): within 500ms", d, machine)
	default:
		t.Errorf("the shards' schedules began %v apart, want within 50ms (500ms on a busy machine; %s)", d, machine)
	}
	if _, stderr, code := readbench(t, dir, "merge", "shard-1.json", "shard-2.json", "shard-3.json", "--out", "merged.json", "-q"); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	merged, err := results.Load(filepath.Join(dir, "merged.json"))
	if err != nil {
		t.Fatal(err)
	}
	var scheduled int64
	for _, s := range shards {
		scheduled += s.Totals.Scheduled
	}
	if len(merged.Shards) != n || merged.Totals.Scheduled != scheduled || scheduled == 0 || merged.Segment.Barrier != nil {
		t.Errorf("merged: %d shards, %d scheduled (the shards: %d), segment %+v", len(merged.Shards), merged.Totals.Scheduled, scheduled, merged.Segment)
	}

	// The next run in the same folder: the files of 2/3 and 3/3 belong to
	// a run that has started, and must not release this shard.
	_, stderr, code := readbench(t, dir, "run", w, "-q", "--target", url, "--segment", "1/3", "--barrier", bar,
		"--barrier-timeout", "2s", "--out", "again.json")
	if code != 1 || !strings.Contains(stderr, "shards 2/3 and 3/3 not ready after 2s") {
		t.Errorf("a shard among the last run's files: exit %d, %s; want 1 naming 2/3 and 3/3", code, stderr)
	}
}

// TestBarrierNamesTheMissingShard: two of three shards come; both give up
// after the bounded wait, exit 1, naming the one that never came (the
// second, which gives up last, also says that the first gave up).
func TestBarrierNamesTheMissingShard(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, barrierWorkload)
	bar := filepath.Join(dir, "barrier")
	runs := runShards(t, dir, []int{1, 2}, 500*time.Millisecond, func(k int) []string {
		return []string{"run", w, "-q", "--segment", fmt.Sprintf("%d/3", k), "--barrier", bar,
			"--barrier-timeout", "3s", "--out", fmt.Sprintf("shard-%d.json", k)}
	})
	for k, r := range runs {
		if r.code != 1 || !strings.Contains(r.stderr, ": shard 3/3 not ready after 3s") {
			t.Errorf("shard %d/3: exit %d, %q; want 1 naming shard 3/3 alone", k, r.code, r.stderr)
		}
	}
	if r := runs[2]; !strings.Contains(r.stderr, "shard 1/3 was ready and gave up") {
		t.Errorf("shard 2/3: %q: want shard 1/3 named as gone", r.stderr)
	}
}

// TestBarrierUsage: the flags that cannot go together are usage errors.
func TestBarrierUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--segment", "1/2", "--barrier", "b", "--start-at", "+30s"}, "--barrier and --start-at"},
		{[]string{"--barrier", "b"}, "give --segment"},
		{[]string{"--segment", "1/2", "--barrier-timeout", "1m"}, "only with --barrier"},
	} {
		_, stderr, code := readbench(t, dir, append([]string{"run", "-q"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// derefOr is *p, or nil for a nil p, as a JSON value.
func derefOr(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
