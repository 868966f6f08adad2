package runner

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// Merge adds the saved results of a run's shards (paths) into the whole
// run's result, holds it to the workload's thresholds (which hold the
// whole run: a shard's own verdicts judged a share of it), saves it to
// save (a name chosen from the run when save has no Path:
// results.MergedName) and judges it as Job.Run judges a run. wait, above
// 0, is how long to wait for every shard's file to exist (shards still
// running elsewhere). Files that are no shards of one run are bad input
// (*InputError).
func Merge(ctx context.Context, paths []string, wait time.Duration, save Place) (*Done, error) {
	if err := waitForFiles(ctx, paths, wait); err != nil {
		return nil, err
	}
	defer results.LeanGC(paths, os.Getenv)()
	loaded, err := results.LoadAll(paths)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	var in []results.MergeInput
	for i, path := range paths {
		in = append(in, results.MergeInput{Name: path, Result: loaded[i]})
	}
	res, err := results.Merge(in)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	ts := res.Workload.Bounds() // read with the results: a bad one was refused by results.Load
	evalErr := hold(res, ts)
	done := &Done{Result: res}
	name := results.MergedName(res.Started.Time, res.Target.Server.Name, res.Target.Server.Version)
	if done.Path, err = save.save(res, name); err != nil {
		done.Unsaved = unsaved(res, name, err)
		done.Path = done.Unsaved.Fallback
	}
	done.Judgement = done.Unsaved.judge(results.Judge(res, results.Facts{Thresholds: evalErr, Bounded: len(ts) > 0}))
	res.SetJudgement(done.Judgement) // the views open and end with what decided the exit
	return done, nil
}

// waitForFiles waits until every path exists, polling each second, for at
// most d (0: not at all). Results are written atomically (a temporary
// file, then a rename), so a file that exists is complete.
func waitForFiles(ctx context.Context, paths []string, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	deadline := time.Now().Add(d)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		var missing []string
		for _, p := range paths {
			if _, err := os.Stat(p); err != nil {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after waiting %s, still missing: %s", numfmt.Duration(d), strings.Join(missing, ", "))
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-tick.C:
		}
	}
}
