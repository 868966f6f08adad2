package main

import (
	"fmt"
	"strings"
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
	at, err := parseStartAt(c.String("start-at"), now)
	if err != nil {
		return seg, time.Time{}, fmt.Errorf("--start-at: %w", err)
	}
	return seg, at, nil
}

// maxStartWait bounds how far ahead --start-at may be: a date a year off
// is a typo, not a plan.
const maxStartWait = 24 * time.Hour

// parseStartAt reads an RFC 3339 time or "+DURATION" from now. A time not
// after now is refused rather than started at once: a shard that starts
// late is not aligned with the others, and its merge would describe a
// load that never happened.
func parseStartAt(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	var at time.Time
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := time.ParseDuration(rest)
		if err != nil || d <= 0 {
			return time.Time{}, fmt.Errorf("%q: want +DURATION such as +30s, or an RFC 3339 time such as 2026-12-01T08:00:00Z", s)
		}
		at = now.Add(d)
	} else {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, fmt.Errorf("%q: want an RFC 3339 time such as 2026-12-01T08:00:00Z, or +DURATION such as +30s", s)
		}
		at = t
	}
	switch {
	case !at.After(now):
		return time.Time{}, fmt.Errorf("%s has already passed (now %s): shards must all start at the given time; give a later one",
			at.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	case at.Sub(now) > maxStartWait:
		return time.Time{}, fmt.Errorf("%s is more than %s away", at.UTC().Format(time.RFC3339), maxStartWait)
	}
	return at, nil
}
