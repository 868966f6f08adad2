package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// jobWorkload is the workload of every job of the table: one class,
// held to a latency bound (read.p50<50ms) that a merge evaluates.
func jobWorkload(t *testing.T) *workload.Workload {
	t.Helper()
	w, err := workload.Parse("job.yaml", []byte(`
name: job
load: {rate: 10/s, duration: 1s}
sessions: 2
thresholds: {read.p50: "<50ms"}
mix:
  - {class: md, uri: "docs://a"}
`))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// situation is what a stand-in run measured: n reads of outcome o taking
// latency each, one more read scheduled and never counted when lost, and
// cut short when interrupted.
type situation struct {
	o           stats.Outcome
	latency     time.Duration
	lost        bool
	interrupted bool
}

// measured is a stand-in for driver.Run that records s in the measured
// phase of the run of opts.
func (s situation) measured(_ context.Context, opts driver.Options) (*driver.Measurements, error) {
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "md"}})
	rec.Schedule(20)
	for range 20 {
		rec.Read(stats.ReadSample{Outcome: s.o, Answered: true, Sent: true, Latency: s.latency, Service: s.latency})
	}
	if s.lost {
		rec.Schedule(1)
	}
	started := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	return &driver.Measurements{
		Workload: opts.Workload, Segment: opts.Segment, Started: started, Ended: started.Add(time.Second),
		Measured: time.Second, Partial: s.interrupted, Target: opts.Workload.Target,
		Server: client.Implementation{Name: "sim", Version: "1"}, AskedRate: 10,
		Run: rec.Phase(), Warmup: stats.NewRecorder([]stats.ClassInfo{{Name: "md"}}).Phase(),
	}, nil
}

// TestEveryCommandEndsAlike is the one table of how a run ends, for every
// command that makes one: run (a whole run, held to its thresholds),
// capacity's step and ab's run (parts of a command, judged by it
// together), and merge (the shards' whole run, held to the workload's
// thresholds). Each situation's result is saved first, whatever it comes
// to, then judged by the one rule.
func TestEveryCommandEndsAlike(t *testing.T) {
	fine := situation{o: stats.OK, latency: 5 * time.Millisecond}
	slow := situation{o: stats.OK, latency: 200 * time.Millisecond}
	failing := situation{o: stats.Internal, latency: 5 * time.Millisecond}
	lost := situation{o: stats.OK, latency: 5 * time.Millisecond, lost: true}
	cut := situation{o: stats.OK, latency: 5 * time.Millisecond, interrupted: true}
	unknown, err := bounds.ParseThresholds("class.nosuch.read.p50<1s")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		command string // run, capacity, ab or merge
		s       situation
		ts      []bounds.Threshold // run's thresholds besides the workload's (nil: the workload's)
		want    Status
		reason  string
	}{
		{"run: every bound held", "run", fine, nil, Passed, ""},
		{"run: a bound broken", "run", slow, nil, Failed, "1 of 1 thresholds broken: read.p50<50ms (measured 200ms)"},
		{"run: nothing usable", "run", failing, nil, Failed, "useless run: no read succeeded"},
		{"run: a read lost", "run", lost, nil, Failed, "measured phase: accounting identity broken"},
		{"run: interrupted", "run", cut, nil, Interrupted, "run interrupted"},
		{"run: a bound on a class it lacks", "run", fine, unknown, Misused, "threshold: "},
		{"capacity step: held", "capacity", fine, nil, Passed, ""},
		{"capacity step: slow is the search's to judge", "capacity", slow, nil, Passed, ""},
		{"capacity step: nothing usable is a finding", "capacity", failing, nil, Passed, ""},
		{"capacity step: a read lost", "capacity", lost, nil, Failed, "measured phase: accounting identity broken"},
		{"capacity step: interrupted", "capacity", cut, nil, Interrupted, "run interrupted"},
		{"ab run: nothing usable is a finding", "ab", failing, nil, Passed, ""},
		{"ab run: a read lost", "ab", lost, nil, Failed, "measured phase: accounting identity broken"},
		{"ab run: interrupted", "ab", cut, nil, Interrupted, "run interrupted"},
		{"merge: every bound held", "merge", fine, nil, Passed, ""},
		{"merge: a bound broken by the whole run", "merge", slow, nil, Failed, "1 of 1 thresholds broken: read.p50<50ms"},
		{"merge: nothing usable", "merge", failing, nil, Failed, "useless run: no read succeeded"},
		{"merge: a read lost in a shard", "merge", lost, nil, Failed, "measured phase: accounting identity broken"},
		{"merge: a shard interrupted", "merge", cut, nil, Failed, "a shard of the run was interrupted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			done := endOf(t, tt.command, tt.s, tt.ts, dir)
			if done.Judgement.Status != tt.want || !strings.HasPrefix(done.Judgement.Reason, tt.reason) {
				t.Errorf("judged %v %q, want %v %q...", done.Judgement.Status, done.Judgement.Reason, tt.want, tt.reason)
			}
			saved, err := results.Load(done.Path)
			if err != nil {
				t.Fatalf("the result was not saved before it was judged: %v", err)
			}
			if tt.command == "run" || tt.command == "merge" {
				if len(saved.Thresholds) == 0 && tt.want != Misused {
					t.Errorf("the saved result holds no verdicts: %s holds its result to the thresholds", tt.command)
				}
			} else if len(saved.Thresholds) != 0 {
				t.Errorf("a %s run holds verdicts %v: its bounds are the command's", tt.command, saved.Thresholds)
			}
		})
	}
}

// endOf makes the job of command in situation s and returns how it ended.
func endOf(t *testing.T, command string, s situation, more []bounds.Threshold, dir string) *Done {
	t.Helper()
	w := jobWorkload(t)
	ts, err := Thresholds(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts = append(ts, more...)
	job := Job{Tool: results.Tool{Name: "readbench", Version: "test"}, drive: s.measured}
	switch command {
	case "run":
		job.Thresholds, job.Save = ts, Place{Dir: dir}
	case "capacity", "ab":
		job.Part, job.Save = true, File(filepath.Join(dir, command, "one.json"))
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
			if len(d.Result.Thresholds) != 0 || len(d.Notes) == 0 {
				t.Errorf("shard %d: verdicts %v, notes %v: want none evaluated, and a note that merge will", k, d.Result.Thresholds, d.Notes)
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
