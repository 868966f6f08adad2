package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/readbench/readbench/barrier"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// WorkloadDigest is the SHA-256 of w as a result records it, its source
// path left out (shards may name the same file differently): shards of
// one run compute it alike, so it goes into the barrier's run id.
func WorkloadDigest(w *workload.Workload) string {
	rw := *w
	rw.Source = ""
	data, err := json.Marshal(rw)
	if err != nil { // plain data: cannot fail
		panic(fmt.Sprintf("driver: workload digest: %v", err))
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// startOf waits for the moment the schedule starts and returns it (zero:
// now): o.Together's instant, o.StartAt, or the instant the barrier's
// shards computed.
func startOf(ctx context.Context, o Options) (time.Time, *results.Barrier, error) {
	if o.Together != nil {
		at, err := o.Together(ctx)
		if err != nil {
			return time.Time{}, nil, err
		}
		if !waitUntil(ctx, at) {
			return time.Time{}, nil, fmt.Errorf("interrupted while waiting for the other side: %w", context.Cause(ctx))
		}
		return at, nil, nil
	}
	if o.Barrier == nil {
		if !waitUntil(ctx, o.StartAt) {
			return time.Time{}, nil, fmt.Errorf("interrupted while waiting for --start-at %s: %w", o.StartAt.Format(time.RFC3339), context.Cause(ctx))
		}
		return o.StartAt, nil, nil
	}
	start, rec, err := barrier.Wait(ctx, *o.Barrier)
	if err != nil {
		return time.Time{}, nil, fmt.Errorf("--barrier %s: %w", o.Barrier.Dir, err)
	}
	if !waitUntil(ctx, start) {
		return time.Time{}, nil, fmt.Errorf("interrupted while waiting for the barrier's start %s: %w", start.Format(time.RFC3339Nano), context.Cause(ctx))
	}
	rec.Began = results.NewTimestamp(time.Now()) // start, or later when the wait was released after it
	return start, rec, nil
}
