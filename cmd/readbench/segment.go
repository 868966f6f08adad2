package main

import (
	"fmt"
	"time"

	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// The flags of a run split over several processes or machines (README,
// "Many machines"): --segment k/n and --start-at TIME.

// shardFlags are --segment and --start-at.
func shardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "segment", Usage: "run the `k/n`-th share of the workload: shard k of n runs every n-th turn of the same schedule, so n shards merged (readbench merge) are exactly one run; index:i/n is the zero-based form (a Kubernetes completion index)"},
		&cli.StringFlag{Name: "start-at", Usage: "start the schedule at `TIME`: RFC 3339 (2026-12-01T08:00:00Z) or +DURATION from now (+30s); connect first, then wait, so shards start together; a time already past is an error"},
	}
}

// shardOf reads --segment and --start-at; now is the moment a relative
// --start-at counts from.
func shardOf(c *cli.Context, now time.Time) (workload.Segment, time.Time, error) {
	var seg workload.Segment
	if c.IsSet("segment") {
		s, err := workload.ParseSegment(c.String("segment"))
		if err != nil {
			return seg, time.Time{}, fmt.Errorf("--segment: %w", err)
		}
		seg = s
	}
	if !c.IsSet("start-at") {
		return seg, time.Time{}, nil
	}
	at, err := workload.ParseStartAt(c.String("start-at"), now)
	if err != nil {
		return seg, time.Time{}, fmt.Errorf("--start-at: %w", err)
	}
	return seg, at, nil
}
