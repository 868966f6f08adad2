package barrier

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func TestStartAt(t *testing.T) {
	for _, c := range []struct {
		name   string
		ready  []time.Duration // after t0
		margin time.Duration
		want   time.Time
	}{
		{"the latest ready time plus the margin", []time.Duration{0, 3 * time.Second, time.Second}, 2 * time.Second, t0.Add(5 * time.Second)},
		{"one shard", []time.Duration{time.Second}, time.Second, t0.Add(2 * time.Second)},
		{"order does not matter", []time.Duration{3 * time.Second, 0, time.Second}, 2 * time.Second, t0.Add(5 * time.Second)},
		{"no files: no instant", nil, time.Second, time.Time{}},
	} {
		var rs []Ready
		for _, d := range c.ready {
			rs = append(rs, Ready{Ready: t0.Add(d)})
		}
		if got := StartAt(rs, c.margin); !got.Equal(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestStale(t *testing.T) {
	begun := t0.Add(time.Hour)
	for _, c := range []struct {
		name string
		r    Ready
		want bool
	}{
		{"ready just before this wait: a shard started earlier", Ready{Ready: begun.Add(-time.Minute)}, false},
		{"ready after this wait began", Ready{Ready: begun.Add(time.Second)}, false},
		{"ready longer than the timeout ago: its shard gave up", Ready{Ready: begun.Add(-6 * time.Minute)}, true},
		{"started before this wait began: an earlier run", Ready{Ready: begun.Add(-time.Minute), StartAt: begun.Add(-time.Second)}, true},
		{"starting after this wait began: this run", Ready{Ready: begun.Add(-time.Minute), StartAt: begun.Add(time.Second)}, false},
	} {
		if got := Stale(c.r, begun, 5*time.Minute); got != c.want {
			t.Errorf("%s: stale %v, want %v", c.name, got, c.want)
		}
	}
}

func TestNotReadyError(t *testing.T) {
	for _, c := range []struct {
		missing []int
		want    string
	}{
		{[]int{3}, "shard 3/3 not ready after 5m"},
		{[]int{2, 3}, "shards 2/3 and 3/3 not ready after 5m"},
		{[]int{1, 2, 3}, "shards 1/3, 2/3 and 3/3 not ready after 5m"},
	} {
		if got := (&NotReadyError{Missing: c.missing, N: 3, After: 5 * time.Minute}).Error(); got != c.want {
			t.Errorf("%v: %q, want %q", c.missing, got, c.want)
		}
	}
	for _, c := range []struct {
		missing, gaveUp []int
		want            string
	}{
		{[]int{3}, []int{1}, "shard 3/3 not ready after 5m; shard 1/3 was ready and gave up"},
		{nil, []int{1, 2}, "not every shard ready after 5m; shards 1/3 and 2/3 were ready and gave up"},
	} {
		if got := (&NotReadyError{Missing: c.missing, GaveUp: c.gaveUp, N: 3, After: 5 * time.Minute}).Error(); got != c.want {
			t.Errorf("%v: %q, want %q", c.missing, got, c.want)
		}
	}
}

func TestRunID(t *testing.T) {
	a := RunID("digest", "")
	if a != RunID("digest", "") || len(a) != 16 {
		t.Errorf("RunID %q: not the same short id from the same inputs", a)
	}
	if a == RunID("other", "") || a == RunID("digest", "job-uid") {
		t.Error("another workload or run id gave the same run id")
	}
}

// TestWaitReleasesEveryShardAtOneInstant: shards joining at different
// times all return the same start, the latest ready time plus the margin.
func TestWaitReleasesEveryShardAtOneInstant(t *testing.T) {
	dir := t.TempDir()
	const n = 3
	starts := make([]time.Time, n+1)
	outs := make([]*results.Barrier, n+1)
	errs := make([]error, n+1)
	var wg sync.WaitGroup
	for k := 1; k <= n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			starts[k], outs[k], errs[k] = Wait(context.Background(), Config{Dir: dir, Run: "r1", K: k, N: n, Host: "h", Margin: 50 * time.Millisecond, Poll: 5 * time.Millisecond, Timeout: time.Minute})
		}()
		time.Sleep(20 * time.Millisecond) // joined one after another
	}
	wg.Wait()
	var latest time.Time
	for k := 1; k <= n; k++ {
		if errs[k] != nil {
			t.Fatalf("shard %d: %v", k, errs[k])
		}
		if len(outs[k].Shards) != n || outs[k].Run != "r1" {
			t.Fatalf("shard %d saw %d shards of run %q", k, len(outs[k].Shards), outs[k].Run)
		}
		r, ok := read(dir, "r1", k, n)
		if !ok || !results.NewTimestamp(r.Ready).Equal(outs[k].Ready.Time) {
			t.Fatalf("shard %d's record says ready at %v, its file %+v", k, outs[k].Ready, r)
		}
		if r.Ready.After(latest) {
			latest = r.Ready
		}
	}
	for k := 1; k <= n; k++ {
		if want := latest.Add(50 * time.Millisecond); !starts[k].Equal(want) || !outs[k].StartAt.Equal(results.NewTimestamp(want).Time) {
			t.Errorf("shard %d starts at %v (recorded %v), want %v (the latest ready time plus the margin)", k, starts[k], outs[k].StartAt, want)
		}
	}
	// Each file now records the start its shard computed.
	r, ok := read(dir, "r1", 2, n)
	if !ok || !r.StartAt.Equal(starts[2]) {
		t.Errorf("shard 2's file %+v, %v: want its start recorded", r, ok)
	}
}

func TestWaitNamesTheMissingShards(t *testing.T) {
	dir := t.TempDir()
	_, _, err := Wait(context.Background(), Config{Dir: dir, Run: "r1", K: 1, N: 3, Poll: 5 * time.Millisecond, Timeout: 50 * time.Millisecond})
	var nr *NotReadyError
	if !errors.As(err, &nr) || err.Error() != "shards 2/3 and 3/3 not ready after 50ms" {
		t.Fatalf("err %v: want shards 2/3 and 3/3 named", err)
	}
	// It withdrew: a shard coming now must not count it as ready.
	if _, ok := read(dir, "r1", 1, 3); ok {
		t.Error("the shard that gave up left its ready file")
	}
}

// TestWaitTellsAShardThatGaveUp: a shard seen ready that withdrew before
// the others came is named as such, not as one that never came.
func TestWaitTellsAShardThatGaveUp(t *testing.T) {
	dir := t.TempDir()
	first := make(chan error, 1)
	go func() {
		_, _, err := Wait(context.Background(), Config{Dir: dir, Run: "r1", K: 1, N: 3, Poll: 5 * time.Millisecond, Timeout: 2 * time.Second})
		first <- err
	}()
	for {
		if _, ok := read(dir, "r1", 1, 3); ok {
			break // shard 1 is ready: shard 2 will see it
		}
		time.Sleep(time.Millisecond)
	}
	// Shard 2 reads the folder at once, long before shard 1 gives up.
	_, _, err := Wait(context.Background(), Config{Dir: dir, Run: "r1", K: 2, N: 3, Poll: 5 * time.Millisecond, Timeout: 3 * time.Second})
	if err == nil || err.Error() != "shard 3/3 not ready after 3s; shard 1/3 was ready and gave up" {
		t.Errorf("shard 2: %v", err)
	}
	if err := <-first; err == nil {
		t.Error("shard 1 was released")
	}
}

// TestWaitIgnoresStaleFiles: the files an earlier run left (one started,
// one from a shard that gave up long ago), and foreign or broken files,
// do not release a new wait.
func TestWaitIgnoresStaleFiles(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC()
	if err := write(dir, Ready{Run: "r1", K: 2, N: 3, Host: "old", Ready: now.Add(-10 * time.Second), StartAt: now.Add(-8 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	if err := write(dir, Ready{Run: "r1", K: 3, N: 3, Host: "old", Ready: now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	_, _, err := Wait(context.Background(), Config{Dir: dir, Run: "r1", K: 1, N: 3, Poll: 5 * time.Millisecond, Timeout: 100 * time.Millisecond})
	if err == nil || err.Error() != "shards 2/3 and 3/3 not ready after 100ms" {
		t.Fatalf("err %v: the stale files released the wait", err)
	}
	// A broken file, or another run's under this name, counts as absent.
	os.WriteFile(filepath.Join(dir, FileName("r1", 2, 3)), []byte(`{"run":"r1","k":2,`), 0o666)
	write(dir, Ready{Run: "r2", K: 3, N: 3, Ready: now})
	os.Rename(filepath.Join(dir, FileName("r2", 3, 3)), filepath.Join(dir, FileName("r1", 3, 3)))
	_, _, err = Wait(context.Background(), Config{Dir: dir, Run: "r1", K: 1, N: 3, Poll: 5 * time.Millisecond, Timeout: 50 * time.Millisecond})
	if err == nil || err.Error() != "shards 2/3 and 3/3 not ready after 50ms" {
		t.Fatalf("err %v: a broken or foreign file released the wait", err)
	}
}

func TestWaitCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := Wait(ctx, Config{Dir: t.TempDir(), Run: "r1", K: 1, N: 2, Timeout: time.Minute})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v: want cancelled", err)
	}
}
