package driver

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
)

// Session churn (load.session_turns, load.session_lifetime): each of a
// run's sessions is a slot whose session is closed and replaced once it
// has served its turns or lived its time, so the run measures what a new
// host costs (the handshake and first_read blocks) as hosts come and go.
//
// The turn that finds its slot's session spent opens the replacement
// itself and then reads on it; turns due on that slot meanwhile wait for
// it. The wait is bounded by the handshake timeout and is not hidden:
// their reads are sent late, so the lag block and the read latency
// (counted from the intended start) carry it, as a host that must
// reconnect before it can read would see. Other slots' turns go on. The
// spent session is closed (a DELETE of its Streamable HTTP session where
// the server issued one, the end of a stdio child) once its turns in
// flight have ended. A replacement that fails to open leaves the old
// session serving; the next turn on the slot tries again, and the result
// counts the failures (sessions.replace_failed).

// slot is one of the run's sessions and, with churn, its successors.
type slot struct {
	mu      sync.Mutex
	cur     *live
	opening chan struct{} // closed once a replacement being opened is settled; nil: none
}

// live is one session of a slot.
type live struct {
	conn    client.Conn
	opened  time.Time
	turns   int  // turns begun on it
	users   int  // turns in flight on it
	retired bool // replaced: closed once users is 0
	first   atomic.Bool
}

// claimFirst reports whether the caller's read is the first sent on the
// session (true once per session).
func (l *live) claimFirst() bool { return l.first.CompareAndSwap(false, true) }

func newSlots(conns []client.Conn) []*slot {
	now := time.Now()
	out := make([]*slot, len(conns))
	for i, c := range conns {
		out[i] = &slot{cur: &live{conn: c, opened: now}}
	}
	return out
}

// spent reports whether l has served the turns or lived the time churn
// gives a session.
func (r *runner) spent(l *live) bool {
	lo := r.w.Load
	return (lo.SessionTurns > 0 && l.turns >= lo.SessionTurns) ||
		(lo.SessionLifetime > 0 && time.Since(l.opened) >= lo.SessionLifetime)
}

// acquire returns the session a turn on sl reads on, counted in use until
// release; with churn it first replaces a spent one (see above), its
// handshake recorded in rec.
func (r *runner) acquire(ctx context.Context, sl *slot, rec *stats.Recorder) *live {
	sl.mu.Lock()
	for tried := false; ; {
		if ch := sl.opening; ch != nil {
			sl.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
			}
			sl.mu.Lock()
			if ctx.Err() != nil {
				break // the run is ending: the turn reads on what is there and is cancelled
			}
			continue
		}
		if tried || ctx.Err() != nil || !r.spent(sl.cur) {
			break
		}
		tried = true
		ch := make(chan struct{})
		sl.opening = ch
		sl.mu.Unlock()
		next, err := r.open(ctx, nil, rec, false)
		sl.mu.Lock()
		sl.opening = nil
		close(ch)
		if err != nil {
			r.replaceFailed.Add(1)
			if ctx.Err() == nil {
				r.logFailure("(new session)", err.Error())
			}
			continue // the old session serves on
		}
		old := sl.cur
		sl.cur = &live{conn: next, opened: time.Now()}
		old.retired = true
		r.replaced.Add(1)
		if old.users == 0 {
			r.retire(old.conn)
		}
	}
	l := sl.cur
	l.turns++
	l.users++
	sl.mu.Unlock()
	return l
}

// release ends a turn's use of l, closing it if it was replaced and this
// was its last turn in flight.
func (r *runner) release(sl *slot, l *live) {
	sl.mu.Lock()
	l.users--
	last := l.retired && l.users == 0
	sl.mu.Unlock()
	if last {
		r.retire(l.conn)
	}
}

// retire closes a replaced session in the background (a stdio child may
// take a while to exit); closeSessions waits for it. What its connections
// did is kept for the run's count (connections).
func (r *runner) retire(c client.Conn) {
	r.pool.add(c)
	r.closing.Add(1)
	go func() {
		defer r.closing.Done()
		_ = c.Close()
	}()
}

// closeSessions closes every slot's current session and waits for the
// replaced ones still closing: the end of a run's connections.
func (r *runner) closeSessions() {
	var cur []client.Conn
	for _, sl := range r.slots {
		sl.mu.Lock()
		if !sl.cur.retired {
			cur = append(cur, sl.cur.conn)
		}
		sl.mu.Unlock()
	}
	closeAll(cur)
	r.closing.Wait()
}
