package main

import (
	"fmt"
	"os"
	"time"

	"github.com/readbench/readbench/barrier"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// The flags of a run split over several processes or machines (README,
// "Many machines"): --segment k/n, and either --start-at TIME or
// --barrier DIR.

// envRunID names the environment variable --run-id reads (a Kubernetes
// Job's uid, through the downward API).
const envRunID = "READBENCH_RUN_ID"

// shardFlags are --segment, --start-at and the --barrier flags.
func shardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "segment", Usage: "run the `k/n`-th share of the workload: shard k of n runs every n-th turn of the same schedule, so n shards merged (readbench merge) are exactly one run; index:i/n is the zero-based form (a Kubernetes completion index)"},
		&cli.StringFlag{Name: "start-at", Usage: "start the schedule at `TIME`: RFC 3339 (2026-12-01T08:00:00Z) or +DURATION from now (+30s); connect first, then wait, so shards start together; a time already past is an error"},
		&cli.StringFlag{Name: "barrier", Usage: "start with the run's other shards through the folder `DIR` every shard sees (a ReadWriteMany volume): connect, write a ready file, wait for all n, start at the latest ready time plus --barrier-margin (not with --start-at)"},
		&cli.DurationFlag{Name: "barrier-timeout", Value: barrier.DefaultTimeout, Usage: "with --barrier: give up (exit 1, naming the shards missing) after waiting this long"},
		&cli.DurationFlag{Name: "barrier-margin", Value: barrier.DefaultMargin, Usage: "with --barrier: start this long after the last shard is ready; more than the poll interval (100ms) plus the clocks' skew"},
		&cli.StringFlag{Name: "run-id", EnvVars: []string{envRunID}, Usage: "with --barrier: an `ID` unique to this run, the same on every shard (a Kubernetes Job's uid): the run id is the workload's digest and this, so files of an earlier run never release this one"},
	}
}

// shard is how this process shares a run: its segment, and when its
// schedule starts (a fixed time or a barrier; neither: at once).
type shard struct {
	segment workload.Segment
	startAt time.Time
	barrier *barrier.Config // its Run is set by withRun, once the workload is final
}

// shardOf reads --segment, --start-at and --barrier; now is the moment a
// relative --start-at counts from.
func shardOf(c *cli.Context, now time.Time) (shard, error) {
	var s shard
	if c.IsSet("segment") {
		seg, err := workload.ParseSegment(c.String("segment"))
		if err != nil {
			return s, fmt.Errorf("--segment: %w", err)
		}
		s.segment = seg
	}
	if c.IsSet("barrier") {
		if c.IsSet("start-at") {
			return s, fmt.Errorf("--barrier and --start-at: give one (a barrier computes the start; --start-at fixes it)")
		}
		if !c.IsSet("segment") {
			return s, fmt.Errorf("--barrier: give --segment k/n too (the barrier waits for the n shards of the run)")
		}
		if c.String("barrier") == "" {
			return s, fmt.Errorf("--barrier: give a folder")
		}
		if c.Duration("barrier-timeout") <= 0 || c.Duration("barrier-margin") <= 0 {
			return s, fmt.Errorf("--barrier-timeout and --barrier-margin must be positive")
		}
		host, _ := os.Hostname()
		s.barrier = &barrier.Config{
			Dir: c.String("barrier"), K: s.segment.K, N: s.segment.N, Host: host,
			Margin: c.Duration("barrier-margin"), Timeout: c.Duration("barrier-timeout"),
		}
		return s, nil
	}
	for _, name := range []string{"barrier-timeout", "barrier-margin", "run-id"} {
		if c.IsSet(name) && (name != "run-id" || os.Getenv(envRunID) == "") {
			return s, fmt.Errorf("--%s: only with --barrier", name)
		}
	}
	if !c.IsSet("start-at") {
		return s, nil
	}
	at, err := workload.ParseStartAt(c.String("start-at"), now)
	if err != nil {
		return s, fmt.Errorf("--start-at: %w", err)
	}
	s.startAt = at
	return s, nil
}

// withRun sets the barrier's run id from the run's final workload (flags
// applied) and --run-id: what every shard of the run computes alike.
func (s shard) withRun(c *cli.Context, w *workload.Workload) {
	if s.barrier != nil {
		s.barrier.Run = barrier.RunID(driver.WorkloadDigest(w), c.String("run-id"))
	}
}

// prepare makes the barrier's folder before the run connects (a folder
// that cannot be made is refused at once), and says on stderr, even with
// --quiet, when it made one: a folder created on this machine may be one
// no other shard sees (a volume that was not mounted).
func (s shard) prepare(c *cli.Context) error {
	if s.barrier == nil {
		return nil
	}
	created, err := barrier.Prepare(s.barrier.Dir)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if created {
		fmt.Fprintf(c.App.ErrWriter, "readbench: --barrier %s did not exist: created it; every shard of the run must see this same folder (a shared volume)\n", s.barrier.Dir)
	}
	return nil
}
