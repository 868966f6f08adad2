package workload

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/units"
)

// Segment is the k-th of n equal shares of a run (--segment k/n), so that n
// processes on n machines together drive one workload no single generator
// could. The zero value, like 1/1, is the whole run.
//
// The rule, which makes "n shards merged equal one run" exact rather than
// statistical: every shard computes the same schedule (the pacer's intended
// starts, from the same rate, stages and seed; the Poisson draws too) and
// the same plan (Sampling.Turn(i) is a pure function of the seed and i), and
// shard k runs exactly the turns i with i mod n = k-1. The n shards
// partition the turn indices, so their union is, turn for turn, the run one
// process would schedule: same intended starts, same attachments, same
// URIs. A turn limit (load.turns) counts every index, so the union is the
// first `turns` turns. What cannot be split by index is split by Share:
// sessions, the closed model's concurrency (and its turn count) and
// max_in_flight, each k-th share being ⌊total·k/n⌋ − ⌊total·(k−1)/n⌋, which
// sum to the total over the n shards.
//
// The words are kept apart everywhere: a segment is which share of a run
// (k/n: --segment, the result's "segment" key); a shard is a process that
// runs one segment, and its result (merge's inputs, the merged result's
// "shards" key, the barrier's ready files, the metrics' shard label).
type Segment struct {
	K, N int
}

// ParseSegment reads "k/n" with 1 ≤ k ≤ n, or "index:i/n", the
// zero-based form (segment i+1 of n) a Kubernetes Indexed Job gives each
// pod as its completion index, where arguments can substitute a variable
// but not add to it.
func ParseSegment(s string) (Segment, error) {
	body, zeroBased := strings.CutPrefix(strings.TrimSpace(s), "index:")
	ks, ns, ok := strings.Cut(body, "/")
	k, errK := strconv.Atoi(strings.TrimSpace(ks))
	n, errN := strconv.Atoi(strings.TrimSpace(ns))
	if zeroBased && errK == nil && k < MaxSegments {
		k++
	}
	switch {
	case !ok || errK != nil || errN != nil:
		return Segment{}, fmt.Errorf("segment %q: want k/n, the k-th of n shares, e.g. 2/4 (or index:i/n, zero-based)", s)
	case n < 1 || n > MaxSegments:
		return Segment{}, fmt.Errorf("segment %q: n must be 1 to %d", s, MaxSegments)
	case k < 1 || k > n:
		return Segment{}, fmt.Errorf("segment %q: k must be 1 to %d (shares are numbered from 1)", s, n)
	}
	return Segment{K: k, N: n}, nil
}

// MaxSegments bounds n: far more machines than anyone runs, small enough
// that a typo is an error.
const MaxSegments = 10000

// Whole reports whether s is the whole run (the zero value or 1/1).
func (s Segment) Whole() bool { return s.N <= 1 }

// String writes "k/n" ("1/1" for the whole run).
func (s Segment) String() string {
	if s.Whole() {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Owns reports whether turn i of the whole run is this shard's.
func (s Segment) Owns(i uint64) bool {
	return s.Whole() || i%uint64(s.N) == uint64(s.K-1)
}

// Turn is the index in the whole run of the shard's j-th turn: the
// closed model, which has no schedule to filter, numbers its turns so.
func (s Segment) Turn(j uint64) uint64 {
	if s.Whole() {
		return j
	}
	return j*uint64(s.N) + uint64(s.K-1)
}

// Local is the shard's own count for turn i of the whole run (i / n): it
// spreads the shard's turns over its sessions evenly, where i mod sessions
// would give every turn of a shard the same few sessions.
func (s Segment) Local(i uint64) uint64 {
	if s.Whole() {
		return i
	}
	return i / uint64(s.N)
}

// Share is this shard's part of total: ⌊total·k/n⌋ − ⌊total·(k−1)/n⌋. The
// n shares sum to total and differ by at most one.
func (s Segment) Share(total int) int {
	if s.Whole() {
		return total
	}
	t := int64(total)
	return int(t*int64(s.K)/int64(s.N) - t*int64(s.K-1)/int64(s.N))
}

// Segment returns the copy of w that segment s runs, or an error naming the
// key when a count cannot be split into n shares of at least one each:
// sessions, listen.listeners, and for the closed model concurrency (and a
// turn count). Every
// shard refuses such a split, not only those whose share would be zero: a
// shard that ran would wait at the barrier (or start at --start-at) for
// shards that were refused, and its result would merge into no whole. The
// schedule itself (rate, stages, seed, the open model's turn count) is
// left whole: every shard computes it and runs the turns it Owns.
// max_in_flight is shared too, at least one per shard.
func (w *Workload) Segment(s Segment) (*Workload, error) {
	c := *w
	if s.Whole() {
		return &c, nil
	}
	need := func(key string, total int) (int, error) {
		if total < s.N {
			return 0, errorf(key, "%d cannot be split into %d shares of at least one (--segment %s): every shard of the run needs one; raise it to %d or more, or run fewer shards", total, s.N, s, s.N)
		}
		return s.Share(total), nil
	}
	var err error
	if c.Sessions, err = need("sessions", w.Sessions); err != nil {
		return nil, err
	}
	if w.Load.Model == ModelClosed {
		if c.Load.Concurrency, err = need("load.concurrency", w.Load.Concurrency); err != nil {
			return nil, err
		}
		if w.Load.Turns > 0 {
			if c.Load.Turns, err = need("load.turns", w.Load.Turns); err != nil {
				return nil, err
			}
		}
	}
	if w.Listen != nil { // each shard opens its share of the listeners; the changes are the whole run's
		l := *w.Listen
		if l.Listeners, err = need("listen.listeners", w.Listen.Listeners); err != nil {
			return nil, err
		}
		c.Listen = &l
	}
	if w.Load.MinSessions > 0 {
		c.Load.MinSessions = min(max(s.Share(w.Load.MinSessions), 1), c.Sessions)
	}
	if w.Load.MaxInFlight > 0 {
		c.Load.MaxInFlight = max(s.Share(w.Load.MaxInFlight), 1)
	}
	return &c, nil
}

// MaxStartWait bounds how far ahead --start-at may be: a date a year off
// is a typo, not a plan.
const MaxStartWait = 24 * time.Hour

// ParseStartAt reads the moment shards start their schedule (--start-at):
// an RFC 3339 time, or "+DURATION" from now. A time not after now is
// refused rather than started at once: a shard that starts late is not
// aligned with the others, and its merge would describe a load that never
// happened.
func ParseStartAt(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	var at time.Time
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		d, err := units.ParseDuration(rest)
		if err == nil && d <= 0 {
			err = errors.New("want a duration above 0")
		}
		if err != nil {
			return time.Time{}, fmt.Errorf("%q: %v (want +DURATION such as +30s, or an RFC 3339 time such as 2026-12-01T08:00:00Z)", s, err)
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
	case at.Sub(now) > MaxStartWait:
		return time.Time{}, fmt.Errorf("%s is more than %s away", at.UTC().Format(time.RFC3339), MaxStartWait)
	}
	return at, nil
}
