package driver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/internal/h2"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// A run's connections: opened before the schedule starts, a bounded
// number at a time and at load.connect_rate when the workload sets one
// (each settling its own era), closed in parallel after it, and the
// server processes behind them whose cost the run samples.

// connectParallel is how many sessions a run opens at once: a stdio
// server is a process to start (an interpreter, npx), which costs CPU, so
// twice the CPUs; an HTTP session costs the server a round trip or two,
// so many more. Each session's handshake timeout runs from the moment it
// leaves this queue, so a session waiting its turn is not charged the wait.
func connectParallel(t targets.Target) int {
	switch t.Kind {
	case targets.Embedded, targets.Stdio, "":
		return 2 * runtime.GOMAXPROCS(0)
	}
	return 64
}

// dial opens the workload's sessions and settles the era of each. Each
// step is told to Options.Setup with the sessions connected and failed so
// far. Sessions that fail are counted by reason; when fewer than
// load.min_sessions (default: all) connect, the ones that did are closed
// and the error says how many of how many failed and why. It returns the
// sessions that connected, which also become the run's slots.
func (r *runner) dial(ctx context.Context) ([]client.Conn, error) {
	n := max(r.w.Sessions, 1)
	var connected, failed atomic.Int64
	step := func(doing string) {
		r.setup.say(SetupStep{Stage: StageConnect, Doing: doing, Done: int(connected.Load()), Failed: int(failed.Load()), Of: n})
	}
	open := func(ctx context.Context) (client.Conn, error) {
		s, err := r.open(ctx, step, r.measured, true)
		if err != nil {
			failed.Add(1)
			step("failed")
			return nil, err
		}
		connected.Add(1)
		step("open")
		return s, nil
	}
	conns, errs := connectAll(ctx, n, connectParallel(r.w.Target), r.w.Load.ConnectRate.PerSecond, open)
	open1 := compact(conns)
	errs, hint := oneSSEClient(r.w.Target, errs)
	r.sessions = sessionsOf(n, errs)
	need := n
	if m := r.w.Load.MinSessions; m > 0 {
		need = min(m, n)
	}
	if ctx.Err() != nil || len(open1) < need {
		closeAll(open1)
		err := &connectError{counts: r.sessions, need: need, min: r.w.Load.MinSessions > 0, errs: errs, hint: hint}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("connect to %s: interrupted: %w", r.w.Target.Redacted(), context.Cause(ctx))
		}
		return nil, fmt.Errorf("connect to %s: %w", r.w.Target.Redacted(), err)
	}
	if r.sessions.Failed > 0 && r.o.Logf != nil {
		r.o.Logf("connect: %s; the run goes on with %d (load.min_sessions: %d)%s", r.sessions.Line(), len(open1), need, withHint(hint))
	}
	r.slots = newSlots(open1)
	return open1, nil
}

// connectAll opens n sessions with open, at most par at a time and, when
// perSecond is above 0, the k-th no earlier than k/perSecond after the
// first: a ramp a slow-starting server can take. Sessions not started
// when ctx ends fail with its cause.
func connectAll(ctx context.Context, n, par int, perSecond float64, open func(context.Context) (client.Conn, error)) ([]client.Conn, []error) {
	conns, errs := make([]client.Conn, n), make([]error, n)
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(par, 1), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if perSecond > 0 {
					sleepCtx(ctx, time.Until(start.Add(time.Duration(float64(i)/perSecond*float64(time.Second)))))
				}
				if ctx.Err() != nil {
					errs[i] = fmt.Errorf("not opened: %w", context.Cause(ctx))
					continue
				}
				conns[i], errs[i] = open(ctx)
			}
		}()
	}
	wg.Wait()
	return conns, errs
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// compact is the sessions that opened, in order.
func compact(conns []client.Conn) []client.Conn {
	out := make([]client.Conn, 0, len(conns))
	for _, c := range conns {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// connectError is a run whose sessions did not connect in the numbers
// load.min_sessions asks for. One session asked for fails with its own
// reason, as it always did; more say how many of how many failed, and why,
// grouped by reason. It unwraps to each distinct reason.
type connectError struct {
	counts results.Sessions
	need   int
	min    bool // load.min_sessions set need
	errs   []error
	hint   string // the likely cause, when the pattern of failures names one (oneSSEClient)
}

func (e *connectError) Error() string {
	if e.counts.Asked == 1 {
		return joinDistinct(e.errs).Error()
	}
	by := "all must connect; load.min_sessions lowers that"
	if e.min {
		by = fmt.Sprintf("load.min_sessions needs %d", e.need)
	}
	return fmt.Sprintf("%s (%s)%s", e.counts.Line(), by, withHint(e.hint))
}

// withHint is hint as the last clause of a sentence ("; " and the hint),
// or "" when there is none.
func withHint(hint string) string {
	if hint == "" {
		return ""
	}
	return "; " + hint
}

func (e *connectError) Unwrap() []error {
	var out []error
	if err := joinDistinct(e.errs); err != nil {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			return j.Unwrap()
		}
		out = append(out, err)
	}
	return out
}

// closeAll closes sessions in parallel: a stdio child may take a while to
// exit, and children do not wait for each other.
func closeAll(sessions []client.Conn) {
	var wg sync.WaitGroup
	for _, s := range sessions {
		if s != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = s.Close()
			}()
		}
	}
	wg.Wait()
}

// open opens one session and records how long that took, from its
// connect's start to the handshake's end, in rec's handshake block: what a
// new host costs before its first read. The cold start of the server
// behind a stdio session is sampled from the initial sessions only: a
// replacement's is a handshake like any other.
func (r *runner) open(ctx context.Context, step func(string), rec *stats.Recorder, initial bool) (client.Conn, error) {
	began := time.Now()
	s, handshake, err := client.Open(ctx, r.dialOf(step))
	if err != nil {
		return nil, err
	}
	rec.Handshake(time.Since(began))
	r.opened.Add(1)
	if _, first, ok := s.Process(); ok && initial {
		r.cold.Session(first, handshake)
	}
	return s, nil
}

// dialOf is how every session of the run is opened (the reading
// sessions, their replacements, the listeners and the changer's), step
// told of each step of the handshake.
func (r *runner) dialOf(step func(string)) client.Dial {
	limit, setBy := r.o.HandshakeLimit()
	return client.Dial{
		Target: r.w.Target, Protocol: r.w.Protocol, Headers: r.w.Headers, Auth: r.o.Auth,
		Embedded: r.o.EmbeddedCommand, Stderr: r.o.Stderr, Client: r.o.Client,
		Aim:       targets.Aim{AllowHosts: r.w.AllowHosts, InsecureCredentials: r.w.InsecureCredentials},
		MaxAnswer: r.w.Turn.MaxAnswer, HandshakeTimeout: limit, HandshakeSetBy: setBy, Step: step,
		NoKeepAlive: r.w.Load.NoKeepAlive, HTTP: r.http, Stray: (&strayTally{run: &r.strayCounts}).heard(r.logStray),
	}
}

// logStray says what a stdio server printed on stdout that is not
// JSON-RPC (a *client.StrayError: the count so far, the first lines
// quoted), the first time at once and then every few seconds, through
// Options.Logf: a server that logs on stdout breaks its transport, and
// its lines must not pass in silence.
func (r *runner) logStray(err error) {
	if r.o.Logf != nil {
		r.strays.Do(func() { r.o.Logf("%v", err) })
	}
}

// strayTally turns one session's running stray counts (each
// *client.StrayError holds its session's totals so far) into additions to
// the run's counts: a session reports many times, sessions churn, and the
// run keeps the sum of every session's last count (results.Strays).
type strayTally struct {
	run  *strayCounts
	mu   sync.Mutex
	last client.StrayError // the counts already added
}

// heard returns the Dial.Stray callback: the counts added, then log told.
func (t *strayTally) heard(log func(error)) func(error) {
	return func(err error) {
		var se *client.StrayError
		if errors.As(err, &se) {
			t.mu.Lock()
			t.run.lines.Add(se.Lines - t.last.Lines)
			t.run.unknown.Add(se.Unknown - t.last.Unknown)
			t.run.dups.Add(se.Duplicates - t.last.Duplicates)
			t.last.Lines, t.last.Unknown, t.last.Duplicates = se.Lines, se.Unknown, se.Duplicates
			t.mu.Unlock()
		}
		log(err)
	}
}

// strayCounts are the run's strays, every session's added.
type strayCounts struct{ lines, unknown, dups atomic.Int64 }

// result is the counts as the result keeps them.
func (c *strayCounts) result() results.Strays {
	return results.Strays{Lines: c.lines.Load(), UnknownIDAnswers: c.unknown.Load(), DuplicateAnswers: c.dups.Load()}
}

// costPIDs are the processes whose cost a run samples: those behind its
// stdio sessions, and serverPID (--server-pid, 0: none) for a server
// started elsewhere on this machine.
func costPIDs(sessions []client.Conn, serverPID int) []int {
	var pids []int
	for _, s := range sessions {
		if pid, _, ok := s.Process(); ok {
			pids = append(pids, pid)
		}
	}
	if serverPID > 0 {
		pids = append(pids, serverPID)
	}
	return pids
}

// connTally adds up what the run's sessions' HTTP connections did
// (client.Conn.Connections): a replaced session's as it is retired, the
// sessions still open at the end (total).
type connTally struct {
	mu  sync.Mutex
	sum conns.Stats
	any bool // a session had HTTP connections
}

// add counts what c's connections did.
func (t *connTally) add(c client.Conn) {
	st, ok := c.Connections()
	if !ok {
		return
	}
	t.mu.Lock()
	t.sum.Add(st)
	t.any = true
	t.mu.Unlock()
}

// total is the run's count, the slots' current sessions and the HTTP/2
// pool they share (nil: none) added; nil when no session had HTTP
// connections (stdio).
func (t *connTally) total(slots []*slot, shared *h2.Pool) *conns.Stats {
	for _, sl := range slots {
		sl.mu.Lock()
		c := sl.cur.conn
		sl.mu.Unlock()
		t.add(c)
	}
	if !t.any {
		return nil
	}
	sum := t.sum
	if shared != nil {
		if st := shared.Stats(); st.Opened > 0 {
			sum.Add(st)
		}
	}
	return &sum
}

// sharedHTTP is the HTTP of w's sessions: the http section's version and,
// where it may speak HTTP/2, the pool they share, of one connection a
// session unless http.connections says otherwise (docs/workload.md, http).
func sharedHTTP(w *workload.Workload) client.HTTP {
	switch w.Target.Kind {
	case targets.HTTP, targets.SSE, targets.Files:
	default:
		return client.HTTP{}
	}
	h := w.HTTP
	listeners := 0
	if w.Listen != nil {
		listeners = w.Listen.Listeners
	}
	return client.SharedHTTP(h.Version, cmp.Or(h.Connections, w.Sessions+listeners), h.StreamsPerConnection)
}
