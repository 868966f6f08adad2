package barrier

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// Defaults of a Config's zero fields.
const (
	DefaultMargin  = 2 * time.Second
	DefaultTimeout = 5 * time.Minute
	DefaultPoll    = 100 * time.Millisecond
)

// Config is one shard's wait.
//
// Which files count: a shard's file counts for this wait when it is a
// valid record of the run (same run id, same n) and it is not stale. A
// file is stale when its shard became ready more than Timeout before this
// wait began (that shard has given up since, or started an earlier run),
// or when it says its shard already computed a start that was past when
// this wait began (an earlier run, started); and a shard that gives up
// removes its own. So the files an earlier run left behind never release
// a new one; a run id unique to each run (the
// Kubernetes Job's uid) makes that certain even for back-to-back runs.
type Config struct {
	Dir  string // the folder every shard sees; created when missing
	Run  string // the run id every shard of the run computes alike (RunID)
	K, N int    // this shard: k of n
	Host string // this shard's machine, recorded in its file
	// Margin is added to the latest ready time: it must exceed the poll
	// interval plus the clocks' skew between machines, or a shard sees the
	// last file after the start and starts late (DefaultMargin when 0).
	Margin time.Duration
	// Timeout bounds the wait (DefaultTimeout when 0).
	Timeout time.Duration
	// Poll is how often the folder is read (DefaultPoll when 0): no
	// file-change notification, which network volumes do not deliver.
	Poll time.Duration
}

// NotReadyError is a wait that timed out: the shards whose files never
// came, and those that were ready and gave up (withdrew their file)
// before the others came, by k.
type NotReadyError struct {
	Missing []int
	GaveUp  []int
	N       int
	After   time.Duration
}

// Error reads "shards 2/3 and 3/3 not ready after 5m", and, when some
// shard withdrew, "shard 3/3 not ready after 5m; shard 1/3 was ready
// and gave up".
func (e *NotReadyError) Error() string {
	s := fmt.Sprintf("%s not ready after %s", names(e.Missing, e.N), numfmt.Duration(e.After))
	if len(e.Missing) == 0 {
		s = "not every shard ready after " + numfmt.Duration(e.After)
	}
	if len(e.GaveUp) == 1 {
		s += "; " + names(e.GaveUp, e.N) + " was ready and gave up"
	} else if len(e.GaveUp) > 1 {
		s += "; " + names(e.GaveUp, e.N) + " were ready and gave up"
	}
	return s
}

// names names shards: "shard 3/3", "shards 2/3 and 3/3".
func names(ks []int, n int) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = shardName(k, n)
	}
	switch len(names) {
	case 0:
		return "no shard"
	case 1:
		return "shard " + names[0]
	}
	return "shards " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// RunID is the run id shards derive alike from what they share: the
// digest of the workload they run and, when given, an id unique to the
// run (--run-id: a Kubernetes Job's uid or name). Short, and safe in a
// file name.
func RunID(workloadDigest, id string) string {
	h := sha256.Sum256([]byte(workloadDigest + "\x00" + id))
	return hex.EncodeToString(h[:8])
}

// StartAt is the instant every shard computes from the same files: the
// latest ready time plus margin (zero for no files).
func StartAt(shards []Ready, margin time.Duration) time.Time {
	var latest time.Time
	for _, s := range shards {
		if s.Ready.After(latest) {
			latest = s.Ready
		}
	}
	if latest.IsZero() {
		return latest
	}
	return latest.Add(margin)
}

// Wait writes this shard's ready file, waits until the n shards of the
// run are ready, then rewrites its file with the start it computed and
// returns it (the latest ready time plus the margin, exact) with what the
// wait found in the result's own form (segment.barrier: this shard's
// ready time, the start, every shard's file; Began is the caller's to set
// once its schedule began), so that no second type carries it to the
// result. It fails with a *NotReadyError after c.Timeout, or with ctx's
// error when cancelled.
func Wait(ctx context.Context, c Config) (start time.Time, rec *results.Barrier, err error) {
	c = c.withDefaults()
	if c.Run == "" || c.N < 1 || c.K < 1 || c.K > c.N {
		return time.Time{}, nil, fmt.Errorf("barrier: shard %d/%d of run %q", c.K, c.N, c.Run)
	}
	if err := os.MkdirAll(c.Dir, 0o777); err != nil {
		return time.Time{}, nil, fmt.Errorf("barrier: %w", err)
	}
	begun := time.Now()
	me := Ready{Run: c.Run, K: c.K, N: c.N, Host: c.Host, Ready: begun.UTC()}
	if err := write(c.Dir, me); err != nil {
		return time.Time{}, nil, err
	}
	deadline := time.NewTimer(c.Timeout)
	defer deadline.Stop()
	tick := time.NewTicker(c.Poll)
	defer tick.Stop()
	seen := make([]bool, c.N+1) // by k: its file counted at some poll
	for {
		shards, missing := c.look(me, begun)
		for _, s := range shards {
			seen[s.K] = true
		}
		if len(missing) == 0 {
			me.StartAt = StartAt(shards, c.Margin)
			if err := write(c.Dir, me); err != nil {
				return time.Time{}, nil, err
			}
			return me.StartAt, record(me, shards), nil
		}
		select {
		case <-ctx.Done():
			c.withdraw()
			return time.Time{}, nil, fmt.Errorf("barrier: waiting for %s: %w", names(missing, c.N), context.Cause(ctx))
		case <-deadline.C:
			c.withdraw()
			e := &NotReadyError{N: c.N, After: c.Timeout}
			for _, k := range missing {
				if seen[k] {
					e.GaveUp = append(e.GaveUp, k)
				} else {
					e.Missing = append(e.Missing, k)
				}
			}
			return time.Time{}, nil, e
		case <-tick.C:
		}
	}
}

// record is the result's segment.barrier of a wait that ended with me
// (its start computed) and every shard's file.
func record(me Ready, shards []Ready) *results.Barrier {
	r := &results.Barrier{Run: me.Run, Ready: results.NewTimestamp(me.Ready), StartAt: results.NewTimestamp(me.StartAt),
		Shards: make([]results.BarrierShard, 0, len(shards))}
	for _, s := range shards {
		r.Shards = append(r.Shards, results.BarrierShard{K: s.K, Host: s.Host, Ready: results.NewTimestamp(s.Ready)})
	}
	return r
}

// withdraw removes this shard's file when it gives up, so that a shard
// coming later does not count it as ready (best effort: a shard that dies
// leaves it, and the stale rule retires it).
func (c Config) withdraw() {
	_ = os.Remove(filepath.Join(c.Dir, FileName(c.Run, c.K, c.N)))
}

func (c Config) withDefaults() Config {
	if c.Margin <= 0 {
		c.Margin = DefaultMargin
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Poll <= 0 {
		c.Poll = DefaultPoll
	}
	return c
}

// look reads every shard's file once: the ones that count for this wait
// (see Config), and the k of those that do not.
func (c Config) look(me Ready, begun time.Time) (shards []Ready, missing []int) {
	for k := 1; k <= c.N; k++ {
		if k == c.K {
			shards = append(shards, me) // its own, as written
			continue
		}
		r, ok := read(c.Dir, c.Run, k, c.N)
		if ok && !Stale(r, begun, c.Timeout) {
			shards = append(shards, r)
		} else {
			missing = append(missing, k)
		}
	}
	return shards, missing
}

// Stale says whether a file cannot belong to a wait begun at begun with
// this timeout: its shard became ready more than timeout earlier, or it
// computed a start already past at begun.
func Stale(r Ready, begun time.Time, timeout time.Duration) bool {
	if r.Ready.Before(begun.Add(-timeout)) {
		return true
	}
	return !r.StartAt.IsZero() && r.StartAt.Before(begun)
}

// Prepare makes sure the folder exists before the shard connects, so a
// folder that cannot be made (a volume not mounted, no permission) fails
// the run at once rather than after its sessions opened. It reports
// whether it created the folder: a caller says so, since a folder made
// here on one machine is, on a cluster, often the sign of a volume that
// was not mounted, and no other shard would ever see it.
func Prepare(dir string) (created bool, err error) {
	switch fi, err := os.Stat(dir); {
	case err == nil && fi.IsDir():
		return false, nil
	case err == nil:
		return false, fmt.Errorf("barrier: %s is a file, not a folder", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("barrier: %w", err)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return false, fmt.Errorf("barrier: %w", err)
	}
	return true, nil
}
