package deploy

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

// TestShardsJobRunsItsBarrier runs the shards Job's command line, as the
// manifest writes it, on this machine: n shards (n the Job's completions)
// started a second apart, the shared volume a temporary folder, the Job's
// uid a fixed id, the shipped workload replaced by a short one against
// the embedded server. With no start time given they must all start at
// one instant, and the merge Job's command line merge their files.
func TestShardsJobRunsItsBarrier(t *testing.T) {
	m := load(t)
	j := m.jobs["readbench-shards"]
	if j == nil {
		t.Fatal("no readbench-shards Job")
	}
	n := int(*j.Spec.Completions)
	c := onlyContainer(t, j)
	vol := t.TempDir()
	bin := filepath.Join(t.TempDir(), "readbench")
	build := exec.Command("go", "build", "-o", bin, "./cmd/readbench")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	local, err := filepath.Abs("testdata/local-workload.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// here maps a path of the pod to this machine: the workload's
	// ConfigMap to the local workload, the shared volume to vol.
	here := func(arg, mount string) string {
		if arg == c.Args[1] {
			return local
		}
		return strings.ReplaceAll(arg, mount, vol)
	}
	shardArgs := func(i int) []string {
		var out []string
		for _, a := range c.Args {
			a = strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i))
			out = append(out, here(a, "/results"))
		}
		return out
	}
	for _, a := range c.Args {
		if strings.Contains(strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", ""), "$(") {
			t.Fatalf("%s: a variable this test does not set", a)
		}
	}
	run := func(args []string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		dieWithTest(cmd)
		cmd.Dir = vol
		cmd.Env = append(os.Environ(), "READBENCH_RUN_ID=job-uid-1") // the Job's uid, through the downward API
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		return stderr.String(), err
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	logs := make([]string, n)
	for i := range n {
		if i > 0 {
			time.Sleep(time.Second) // pods scheduled and connected at different times
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			logs[i], errs[i] = run(shardArgs(i))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("shard index %d: %v: %s", i, err, logs[i])
		}
	}
	var startAt time.Time
	for i := range n {
		r, err := results.Load(strings.ReplaceAll(here(flagValue(t, c.Args, "--out"), "/results"), "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i)))
		if err != nil {
			t.Fatal(err)
		}
		b := r.Segment.Barrier
		if b == nil || len(b.Shards) != n {
			t.Fatalf("shard index %d: segment %+v: not started by the barrier", i, r.Segment)
		}
		if i == 0 {
			startAt = b.StartAt.Time
		}
		if !b.StartAt.Equal(startAt) || b.Began.Sub(b.StartAt.Time) > 50*time.Millisecond {
			t.Errorf("shard index %d: start_at %v, began %v; shard 0's start_at %v", i, b.StartAt, b.Began, startAt)
		}
	}
	mj := m.jobs["readbench-merge"]
	var margs []string
	for _, a := range onlyContainer(t, mj).Args {
		margs = append(margs, strings.ReplaceAll(a, "/results", vol))
	}
	if log, err := run(append(margs, "--quiet")); err != nil {
		t.Fatalf("the merge Job's command: %v: %s", err, log)
	}
	merged, err := results.Load(filepath.Join(vol, "merged.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.Shards) != n || merged.Totals.Scheduled == 0 {
		t.Errorf("merged %d shards, %d reads scheduled", len(merged.Shards), merged.Totals.Scheduled)
	}
}
