package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// jobWorkload is the workload of every job of the table: one class,
// held to a latency bound (read.p50<50ms) that a merge evaluates, or
// free of thresholds.
func jobWorkload(t *testing.T, free bool) *workload.Workload {
	t.Helper()
	held := `thresholds: {read.p50: "<50ms"}`
	if free {
		held = ""
	}
	w, err := yamlfile.Parse("job.yaml", []byte(`
name: job
load: {rate: 10/s, duration: 1s}
sessions: 2
`+held+`
mix:
  - {class: md, uri: "docs://a"}
`))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// situation is what a stand-in run measured: 20 turns of one read, of
// outcome o taking latency each but for the first bad, of outcome badO
// (a cancelled one cuts its turn), one more read scheduled and never
// counted when lost, and cut short when interrupted.
type situation struct {
	o           stats.Outcome
	latency     time.Duration
	lost        bool
	interrupted bool
	bad         int
	badO        stats.Outcome
	pressure    *float64 // the run's CPU pressure (nil: unknown)
}

// measured is a stand-in for driver.Run that records s in the measured
// phase of the run of opts.
func (s situation) measured(_ context.Context, opts driver.Options) (*results.Result, error) {
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "md"}})
	rec.Schedule(20)
	for i := range 20 {
		sample, end := stats.ReadSample{Outcome: s.o, Answered: true, Sent: true, Latency: s.latency, Service: s.latency}, stats.TurnComplete
		if i < s.bad {
			sample.Outcome = s.badO
			if s.badO == stats.Cancelled {
				sample.Answered, sample.LowerBound, end = false, true, stats.TurnCut
			}
		}
		rec.Read(sample)
		rec.Turn(stats.TurnSample{End: end, Latency: s.latency, Reads: 1})
	}
	if s.lost {
		rec.Schedule(1)
	}
	started := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	return results.Build(results.Meta{
		ToolName: "readbench", ToolVersion: "test",
		Segment: results.Segment{K: opts.Segment.K, N: opts.Segment.N}, Started: started, Ended: started.Add(time.Second),
		Measured: time.Second, Partial: s.interrupted, AskedRate: 10, CPUPressure: s.pressure,
		Target: results.Target{Address: opts.Workload.Target.String(), Transport: opts.Workload.Target.Transport(),
			Server: results.Server{Name: "sim", Version: "1"}},
	}, opts.Workload, rec.Phase(), stats.NewRecorder([]stats.ClassInfo{{Name: "md"}}).Phase())
}

// ending is one way a job ends in the table of TestEveryCommandEndsAlike
// (endings): the command, whether the workload holds no thresholds, what
// the run measured, the run's thresholds besides the workload's (nil: the
// workload's), and the exit and the start of the reason it must come to.
type ending struct {
	name    string
	command string // run, capacity, ab or merge
	free    bool   // the workload holds no thresholds
	s       situation
	ts      []bounds.Threshold
	want    results.Exit
	reason  string
}

// endings is the one table of how a job ends, for every command that
// makes one; TestEveryCommandEndsAlike holds the exit to it and
// TestEveryViewSaysTheExit every view of the result.
func endings(t *testing.T) []ending {
	t.Helper()
	fine := situation{o: stats.OK, latency: 5 * time.Millisecond}
	slow := situation{o: stats.OK, latency: 200 * time.Millisecond}
	failing := situation{o: stats.Internal, latency: 5 * time.Millisecond}
	lost := situation{o: stats.OK, latency: 5 * time.Millisecond, lost: true}
	cut := situation{o: stats.OK, latency: 5 * time.Millisecond, interrupted: true}
	slowCut := situation{o: stats.OK, latency: 200 * time.Millisecond, interrupted: true}
	mostCut := situation{o: stats.OK, latency: 5 * time.Millisecond, bad: 11, badO: stats.Cancelled}
	halfCut := situation{o: stats.OK, latency: 5 * time.Millisecond, bad: 10, badO: stats.Cancelled}
	mostNotFound := situation{o: stats.OK, latency: 5 * time.Millisecond, bad: 11, badO: stats.NotFound}
	halfNotFound := situation{o: stats.OK, latency: 5 * time.Millisecond, bad: 10, badO: stats.NotFound}
	unknown, err := bounds.ParseThresholds("class.nosuch.read.p50<1s")
	if err != nil {
		t.Fatal(err)
	}
	unheard, err := bounds.ParseThresholds("notify.p99<1s")
	if err != nil {
		t.Fatal(err)
	}
	return []ending{
		{"run: every bound held", "run", false, fine, nil, results.Passed, ""},
		{"run: a bound broken", "run", false, slow, nil, results.Failed, "1 of 1 thresholds broken: read.p50<50ms (measured 200ms)"},
		{"run: nothing usable", "run", false, failing, nil, results.Failed, "useless run: no read succeeded"},
		{"run: a read lost", "run", false, lost, nil, results.Failed, "measured phase: accounting identity broken"},
		{"run: interrupted", "run", false, cut, nil, results.Interrupted, "run interrupted"},
		{"run: interrupted with a bound broken", "run", false, slowCut, nil, results.Interrupted, "run interrupted"},
		{"run: a bound on a class it lacks", "run", false, fine, unknown, results.Misused, "threshold: "},
		{"run: a bound on notifications without listeners", "run", false, fine, unheard, results.Misused, "threshold: notify.p99: unknown for this run"},
		{"capacity step: held", "capacity", false, fine, nil, results.Passed, ""},
		{"capacity step: slow is the search's to judge", "capacity", false, slow, nil, results.Passed, ""},
		{"capacity step: nothing usable is a finding", "capacity", false, failing, nil, results.Passed, ""},
		{"capacity step: a read lost", "capacity", false, lost, nil, results.Failed, "measured phase: accounting identity broken"},
		{"capacity step: interrupted", "capacity", false, cut, nil, results.Interrupted, "run interrupted"},
		{"ab run: nothing usable is a finding", "ab", false, failing, nil, results.Passed, ""},
		{"ab run: a read lost", "ab", false, lost, nil, results.Failed, "measured phase: accounting identity broken"},
		{"ab run: interrupted", "ab", false, cut, nil, results.Interrupted, "run interrupted"},
		{"merge: every bound held", "merge", false, fine, nil, results.Passed, ""},
		{"merge: a bound broken by the whole run", "merge", false, slow, nil, results.Failed, "1 of 1 thresholds broken: read.p50<50ms"},
		{"merge: nothing usable", "merge", false, failing, nil, results.Failed, "useless run: no read succeeded"},
		{"merge: a read lost in a shard", "merge", false, lost, nil, results.Failed, "measured phase: accounting identity broken"},
		{"merge: a shard interrupted", "merge", false, cut, nil, results.Failed, "a shard of the run was interrupted"},
		// Without thresholds, a whole run in which most turns failed (or
		// most reads) fails with its health line; exactly half is not
		// most; with thresholds, they alone decide; a part's health is its
		// command's to judge.
		{"run without thresholds: most turns cut", "run", true, mostCut, nil, results.Failed, "✗ overloaded: 55.0% of turns cut"},
		{"run without thresholds: half the turns cut", "run", true, halfCut, nil, results.Passed, ""},
		{"run without thresholds: most reads not found", "run", true, mostNotFound, nil, results.Failed, "✗ failing: 55.0% of reads sent failed, all not_found"},
		{"run without thresholds: half the reads not found", "run", true, halfNotFound, nil, results.Passed, ""},
		{"run held to thresholds: they alone decide", "run", false, mostCut, nil, results.Passed, ""},
		{"run without thresholds: a healthy run", "run", true, fine, nil, results.Passed, ""},
		{"run without thresholds: nothing usable", "run", true, failing, nil, results.Failed, "useless run: no read succeeded"},
		{"capacity step: most turns cut is the search's to judge", "capacity", true, mostCut, nil, results.Passed, ""},
		{"ab run: most reads not found is a finding", "ab", true, mostNotFound, nil, results.Passed, ""},
		{"merge without thresholds: most turns cut", "merge", true, mostCut, nil, results.Failed, "✗ overloaded: 55.0% of turns cut"},
		{"merge held to thresholds: they alone decide", "merge", false, mostCut, nil, results.Passed, ""},
	}
}

// TestEveryCommandEndsAlike is the one table of how a run ends, for every
// command that makes one: run (a whole run, held to its thresholds),
// capacity's step and ab's run (parts of a command, judged by it
// together), and merge (the shards' whole run, held to the workload's
// thresholds). Each situation's result is saved first, whatever it comes
// to, then judged by the one rule.
func TestEveryCommandEndsAlike(t *testing.T) {
	tests := endings(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			done := endOf(t, tt.command, tt.free, tt.s, tt.ts, dir)
			if done.Judgement.Exit != tt.want || !strings.HasPrefix(done.Judgement.Reason, tt.reason) {
				t.Errorf("judged %v %q, want %v %q...", done.Judgement.Exit, done.Judgement.Reason, tt.want, tt.reason)
			}
			saved, err := results.Load(done.Path)
			if err != nil {
				t.Fatalf("the result was not saved before it was judged: %v", err)
			}
			if (tt.command == "run" || tt.command == "merge") && !tt.free {
				if len(saved.Thresholds) == 0 && tt.want != results.Misused {
					t.Errorf("the saved result holds no verdicts: %s holds its result to the thresholds", tt.command)
				}
			} else if len(saved.Thresholds) != 0 {
				t.Errorf("a %s run holds verdicts %v: its bounds are the command's", tt.command, saved.Thresholds)
			}
		})
	}
}

// endOf makes the job of command in situation s (of a workload free of
// thresholds when free) and returns how it ended.
func endOf(t *testing.T, command string, free bool, s situation, more []bounds.Threshold, dir string) *Done {
	t.Helper()
	w := jobWorkload(t, free)
	ts, err := Thresholds(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts = append(ts, more...)
	job := Job{drive: s.measured}
	switch command {
	case "run":
		job.Thresholds, job.Save = ts, Place{Dir: dir}
	case "capacity", "ab":
		job.Part, job.Save = true, File(filepath.Join(dir, command, "one.json"), false)
	case "merge":
		var paths []string
		for k := 1; k <= 2; k++ {
			shard := job
			shard.Thresholds = ts // not evaluated on a shard: merge does
			shard.Options.Segment = workload.Segment{K: k, N: 2}
			if shard.Options, err = shard.Options.For(w, driver.Overrides{}); err != nil {
				t.Fatal(err)
			}
			shard.Save = Place{Path: filepath.Join(dir, "shard-"+string(rune('0'+k))+".json")}
			d, err := shard.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Result.Thresholds) != 0 || (len(d.Notes) > 0) == free {
				t.Errorf("shard %d: verdicts %v, notes %v: want none evaluated, and a note that merge will (when there are thresholds)", k, d.Result.Thresholds, d.Notes)
			}
			if !free && s.badO == stats.Cancelled && d.Judgement.Exit != results.Passed {
				t.Errorf("shard %d judged %v %q: its thresholds, left to merge, alone decide", k, d.Judgement.Exit, d.Judgement.Reason)
			}
			paths = append(paths, d.Path)
		}
		done, err := Merge(context.Background(), paths, 0, Place{Path: filepath.Join(dir, "merged.json")})
		if err != nil {
			t.Fatal(err)
		}
		return done
	}
	if job.Options, err = job.Options.For(w, driver.Overrides{}); err != nil {
		t.Fatal(err)
	}
	done, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(done.Path); err != nil {
		t.Fatal(err)
	}
	return done
}
