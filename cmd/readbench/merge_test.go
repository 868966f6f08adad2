package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

// shardWorkload is a small open-model workload whose reads can only end
// ok or expected_error: its counts depend on the seed alone, so a whole
// run and its shards must agree on them exactly.
const shardWorkload = `name: shard-test
sessions: 3
seed: 7
load: {rate: 30/s, warmup: 1s, duration: 2s}
turn: {attachments: 3, read_timeout: 5s, deadline: 2s}
mix:
  - {class: doc, weight: 70, mime: text/markdown, size: "lognormal(4KiB, 40KiB)", delay: 2ms}
  - {class: shot, weight: 25, mime: image/png, size: 20000, delay: 3ms}
  - {class: gone, weight: 5, uri: "docs://nope", expect: not_found}
thresholds: {rate: ">25/s", errors: "<1%"}
`

// TestShardsMergeToOneRun runs three shards (--segment k/3, aligned by
// --start-at) and the same workload in one process, merges the shards and
// compares: scheduled reads, turns and outcomes (overall and per class)
// exactly; the merged percentiles equal those of the shards' pooled
// histograms within the histogram's precision, and sit near the single
// run's (a separate run, so only near: timing differs between runs).
func TestShardsMergeToOneRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, shardWorkload)
	const n = 3
	at := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)
	var wg sync.WaitGroup
	codes := make([]int, n)
	errs := make([]string, n)
	for k := 1; k <= n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[k-1], codes[k-1] = readbench(t, dir, "run", w, "-q", "--segment", fmt.Sprintf("%d/%d", k, n),
				"--start-at", at, "--out", fmt.Sprintf("shard-%d.json", k))
		}()
	}
	wg.Wait()
	for k, code := range codes {
		if code != 0 {
			t.Fatalf("shard %d/%d: exit %d: %s", k+1, n, code, errs[k])
		}
	}
	if _, stderr, code := readbench(t, dir, "run", w, "-q", "--out", "whole.json"); code != 0 {
		t.Fatalf("whole run: exit %d: %s", code, stderr)
	}
	shards := []string{"shard-3.json", "shard-1.json", "shard-2.json"} // any order
	if _, stderr, code := readbench(t, dir, append(append([]string{"merge"}, shards...), "--out", "merged.json", "-q")...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	load := func(name string) *results.Result {
		r, err := results.Load(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	whole, merged := load("whole.json"), load("merged.json")
	for k := 1; k <= n; k++ {
		s := load(fmt.Sprintf("shard-%d.json", k))
		if s.Segment != (results.Segment{K: k, N: n}) {
			t.Errorf("shard %d: segment %+v", k, s.Segment)
		}
		if got := s.Started.UTC().Format(time.RFC3339Nano); !strings.HasPrefix(at, strings.TrimSuffix(got, "Z")) {
			t.Errorf("shard %d started %s, want --start-at %s", k, got, at)
		}
	}
	// The thresholds hold the whole run: 30 turns/s merged (each shard drove 10).
	if len(merged.Thresholds) != 2 || !merged.Thresholds[0].Pass || !merged.Thresholds[1].Pass {
		t.Errorf("merged thresholds %+v", merged.Thresholds)
	}
	if merged.Segment != (results.Segment{K: 1, N: 1}) || len(merged.Shards) != n {
		t.Errorf("merged: segment %+v, %d shards listed", merged.Segment, len(merged.Shards))
	}
	if whole.Totals.Scheduled == 0 || merged.Totals.Scheduled != whole.Totals.Scheduled || merged.Totals.Turns != whole.Totals.Turns {
		t.Errorf("scheduled %d turns %d merged, %d and %d in one run", merged.Totals.Scheduled, merged.Totals.Turns, whole.Totals.Scheduled, whole.Totals.Turns)
	}
	if merged.Warmup.Scheduled != whole.Warmup.Scheduled {
		t.Errorf("warmup: %d reads merged, %d in one run", merged.Warmup.Scheduled, whole.Warmup.Scheduled)
	}
	sameCounts(t, "outcomes", merged.Totals.Outcomes, whole.Totals.Outcomes)
	if len(merged.Classes) != len(whole.Classes) {
		t.Fatalf("%d classes merged, %d in one run", len(merged.Classes), len(whole.Classes))
	}
	for i := range whole.Classes {
		sameCounts(t, "class "+whole.Classes[i].Class, merged.Classes[i].Outcomes, whole.Classes[i].Outcomes)
		if merged.Classes[i].DiskBytes != whole.Classes[i].DiskBytes {
			t.Errorf("class %s: %d disk bytes merged, %d in one run", whole.Classes[i].Class, merged.Classes[i].DiskBytes, whole.Classes[i].DiskBytes)
		}
	}
	if merged.Totals.Outcomes["expected_error"] == 0 {
		t.Error("no expected_error read: the workload does not exercise per-class counts")
	}
	// The merged percentiles are the pooled shards' (the merge loses nothing).
	pooled, err := load("shard-1.json").Read.Histogram()
	if err != nil {
		t.Fatal(err)
	}
	for k := 2; k <= n; k++ {
		h, err := load(fmt.Sprintf("shard-%d.json", k)).Read.Histogram()
		if err != nil {
			t.Fatal(err)
		}
		pooled.Merge(h)
	}
	for _, q := range []struct {
		p   float64
		got float64
	}{{50, merged.Read.P50Ms}, {99, merged.Read.P99Ms}} {
		want := float64(pooled.Quantile(q.p)) / float64(time.Millisecond)
		if math.Abs(q.got-want) > want*0.001+0.001 {
			t.Errorf("merged read p%v %.3f ms, pooled shards %.3f ms", q.p, q.got, want)
		}
	}
	// Near the single run: a 2-3 ms read either way, generous for a loaded machine.
	if d := math.Abs(merged.Read.P50Ms - whole.Read.P50Ms); d > 20 {
		t.Errorf("merged read p50 %.3f ms, one run %.3f ms", merged.Read.P50Ms, whole.Read.P50Ms)
	}
	if math.Abs(merged.Totals.AskedRate-whole.Totals.AskedRate) > 1e-6 {
		t.Errorf("asked rate %.3f merged, %.3f in one run", merged.Totals.AskedRate, whole.Totals.AskedRate)
	}
	var tlAsked float64
	for _, s := range merged.Timeline {
		tlAsked += s.Asked
	}
	if int64(tlAsked) != merged.Totals.Turns+merged.Warmup.Turns {
		t.Errorf("timeline asks for %.0f turns, the run had %d", tlAsked, merged.Totals.Turns+merged.Warmup.Turns)
	}
}

func sameCounts(t *testing.T, what string, got, want map[string]int64) {
	t.Helper()
	for name, n := range want {
		if got[name] != n {
			t.Errorf("%s: %s %d merged, %d in one run", what, name, got[name], n)
		}
	}
}

// TestMergeRefusesWhatIsNotOneRun: a missing shard, one given twice and a
// whole run are refused with exit 2 and a message naming the problem.
func TestMergeRefusesWhatIsNotOneRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, strings.Replace(shardWorkload, "duration: 2s", "duration: 1s", 1))
	at := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339)
	var wg sync.WaitGroup
	for k := 1; k <= 2; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, stderr, code := readbench(t, dir, "run", w, "-q", "--segment", fmt.Sprintf("%d/3", k), "--start-at", at, "--out", fmt.Sprintf("s%d.json", k)); code != 0 {
				t.Errorf("shard %d: exit %d: %s", k, code, stderr)
			}
		}()
	}
	wg.Wait()
	if _, stderr, code := readbench(t, dir, "run", w, "-q", "--out", "whole.json"); code != 0 {
		t.Fatalf("whole run: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"s1.json", "s2.json"}, "segment 3/3 missing"},
		{[]string{"s1.json", "s1.json", "s2.json"}, "both segment 1/3"},
		{[]string{"s1.json", "whole.json"}, "is a whole run"},
		{[]string{"s1.json", "nothere.json"}, "nothere.json"},
	} {
		_, stderr, code := readbench(t, dir, append([]string{"merge", "--out", "m.json"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("merge %v: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("a refused merge wrote a result")
	}
	_, stderr, code := readbench(t, dir, "merge", "--wait", "1500ms", "--out", "m.json", "s1.json", "s2.json", "s3.json")
	if code != 1 || !strings.Contains(stderr, "still missing: s3.json") {
		t.Errorf("merge --wait for a shard that never comes: exit %d, %q", code, stderr)
	}
	_, stderr, code = readbench(t, dir, "run", w, "--segment", "1/3", "--start-at", "2020-01-01T00:00:00Z")
	if code != 2 || !strings.Contains(stderr, "already passed") {
		t.Errorf("--start-at in the past: exit %d, %q", code, stderr)
	}
	_, stderr, code = readbench(t, dir, "run", w, "--segment", "1/4")
	if code != 2 || !strings.Contains(stderr, "sessions") {
		t.Errorf("3 sessions in 4 shards: exit %d, %q", code, stderr)
	}
}
