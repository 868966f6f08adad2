package driver

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/clock"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/servercost"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// Context causes, so a cancelled read can tell a deadline from a timeout.
var (
	errDeadline    = errors.New("turn deadline")
	errReadTimeout = errors.New("read timeout")
)

// Run executes the workload and returns its result document, the client
// it said it was (Options.Client) named as the tool that ran it.
// Cancelling ctx stops scheduling, cancels reads in flight and returns a
// partial result (results.Result.Partial).
func Run(ctx context.Context, o Options) (*results.Result, error) {
	m, err := measure(ctx, o)
	if err != nil {
		return nil, err
	}
	return m.result(results.Tool{Name: o.Client.Name, Version: o.Client.Version})
}

// measure executes the workload and returns what it measured, in the form
// Run makes the result of (and the driver's tests look into).
func measure(ctx context.Context, o Options) (*measurements, error) {
	if err := o.Workload.Validate(); err != nil {
		return nil, err
	}
	w, err := o.Workload.Segment(o.Segment)
	if err != nil {
		return nil, err
	}
	if o.Schedule != nil {
		if err := o.Schedule.check(w, o.Segment); err != nil {
			return nil, err
		}
	}
	classes := make([]stats.ClassInfo, len(w.Mix))
	for i, c := range w.Mix {
		classes[i] = stats.ClassInfo{Name: c.Name, MIME: c.MIME}
	}
	reread := rereadClassOf(w, &classes) // listeners' re-reads: a class of their own (reread.go)
	r := &runner{
		o: o, w: w, tracing: newTracing(w),
		failures: rate.Sometimes{First: 3, Interval: 5 * time.Second},
		strays:   rate.Sometimes{First: 1, Interval: 5 * time.Second},
		measured: stats.NewRecorder(classes),
		warmup:   stats.NewRecorder(classes),
		cold:     servercost.NewColdStartRecorder(),
		begun:    make(chan struct{}, 1),
		setup:    setupOf(o.Setup),

		rereadClass: reread,
	}
	r.enableAuth()
	r.http = sharedHTTP(w)
	if r.http.Pool != nil {
		defer r.http.Pool.Close() // after the sessions' ends (defers run last first)
	}
	conns, err := r.dial(ctx)
	if err != nil {
		return nil, err
	}
	var rep *measurements
	defer func() {
		r.closeSessions()
		if rep != nil { // after the sessions' ends: a second answer that came last is counted too
			rep.Meta.Strays = r.strayCounts.result()
		}
	}()
	r.conns = conns
	// The plan waits for the handshake: a server that advertises sim: URIs
	// (client.Conn.SimURIs) has mime+size classes synthesized on any
	// transport, other servers need discovery.
	if r.plan, err = r.buildPlan(ctx, conns[0].SimURIs()); err != nil {
		return nil, err
	}
	r.setup.say(SetupStep{Stage: StageReady})
	server := conns[0].Server()
	rep = &measurements{Workload: o.Workload}
	m := &rep.Meta
	*m = results.Meta{
		Target: results.Target{
			Address: w.Target.String(), Transport: w.Target.Transport(),
			Server:          results.Server{Name: server.Name, Version: server.Version},
			ProtocolVersion: conns[0].ProtocolVersion(),
		},
		Segment:   results.Segment{K: o.Segment.K, N: o.Segment.N},
		AskedRate: r.askedRate(), LateObservable: conns[0].LateAnswersObservable(),
	}
	r.observe(stats.Ready{Workload: w.Name, Target: w.Target.String(), ServerName: server.Name, ServerVersion: server.Version,
		Shard: o.Segment.String(), Classes: classes, AskedRate: m.AskedRate})
	startAt, bar, err := startOf(ctx, o)
	if err != nil {
		return nil, err
	}
	m.Segment.Barrier = bar
	m.Started = time.Now()
	if !startAt.IsZero() {
		m.Started = startAt
	}
	endListening, err := r.startListening(ctx, m.Started, m.Started.Add(w.Load.Warmup))
	if err != nil {
		return nil, err
	}
	cost := servercost.Start(ctx, costPIDs(conns, o.ServerPID), servercost.Every)
	defer cost.Stop() // before closeAll (defers run last first): the children are still there
	self := servercost.Start(ctx, []int{os.Getpid()}, servercost.Every)
	defer self.Stop()
	r.measured.StartTimeline(m.Started) // both phases share the run's seconds
	r.warmup.StartTimeline(m.Started)
	progress := r.startProgress(ctx, m.Started)
	defer progress.stop()
	measuredStart, measuredEnd, partial := r.schedule(ctx, m.Started)
	progress.drain() // the schedule is over: the turns in flight end
	r.turns.Wait()
	m.Listening = endListening() // the listeners' re-reads are reads: ended before the recorders are read
	if r.abandoned.Load() > 0 && m.LateObservable {
		time.Sleep(lateGrace) // let answers the server should not have sent arrive
		m.LateWatch = lateGrace
	}
	progress.stop()
	m.Ended = time.Now()
	m.Partial = partial
	if !measuredStart.IsZero() && measuredEnd.After(measuredStart) {
		m.Measured = measuredEnd.Sub(measuredStart)
	}
	implemented := r.implemented.Load() // a read of either phase answered with a result
	r.measured.Settle(implemented)
	r.warmup.Settle(implemented)
	rep.MeasuredPhase, rep.Warmup = r.measured.Phase(), r.warmup.Phase()
	m.Sessions = r.sessions
	m.Strays = r.strayCounts.result() // again once the sessions closed (above)
	m.Sessions.Opened, m.Sessions.Replaced, m.Sessions.ReplaceFailed = r.opened.Load(), r.replaced.Load(), r.replaceFailed.Load()
	if r.http.Pool != nil {
		r.http.Pool.Settle(time.Second) // the last cuts' resets are on the wire
	}
	m.Connections = connectionsOf(r.pool.total(r.slots, r.http.Pool), !w.Load.NoKeepAlive)
	m.GeneratorPeakRSS, _ = servercost.SelfPeakRSS()
	m.Digests = r.digests.snapshot()
	r.finishAuth(rep)
	m.Cost = cost.Stop().Summarize(measuredStart, measuredEnd, rep.MeasuredPhase.Service.Count()).WithCold(r.cold.Result())
	if g := self.Stop().Summarize(measuredStart, measuredEnd, 0); g.Available {
		m.GeneratorCPU = g.CPU
		if g.PressureKnown {
			m.CPUPressure = &g.CPUPressure
		}
	}
	if o.Listened != nil && m.Listening != nil {
		o.Listened(m.Listening)
	}
	return rep, nil
}

// lateGrace is how long a run waits after its last turn for late answers
// to cancelled reads.
const lateGrace = 250 * time.Millisecond

// runner is the state of one run.
type runner struct {
	o        Options
	w        *workload.Workload
	tracing  tracing // trace context and the bounds a read can break (traces.go)
	plan     *workload.Sampling
	conns    []client.Conn    // the sessions that connected before the schedule
	slots    []*slot          // one per connected session: its current session (churn.go)
	sessions results.Sessions // how connecting went
	closing  sync.WaitGroup
	// opened counts sessions opened (initial and replacements), replaced
	// those churn replaced, replaceFailed replacements that failed to open.
	opened, replaced, replaceFailed atomic.Int64
	measured                        *stats.Recorder
	warmup                          *stats.Recorder
	cold                            *servercost.ColdStartRecorder
	setup                           *setupTell // Options.Setup, one call at a time

	failures    rate.Sometimes // paces Options.Logf
	failed      saidOnce       // the failures already logged: each is said once
	strays      rate.Sometimes // paces what stdio servers print on stdout that is not JSON-RPC
	strayCounts strayCounts    // what the servers sent that could only be skipped, for the result
	noMethod    sync.Once      // says once that the server does not implement the read's method
	misused     sync.Once      // says once that the server answered -32601 worded as a missing resource
	fresh       freshness      // cache hints: what a host honouring them would not send
	digests     contentDigests
	turns       sync.WaitGroup // every turn goroutine
	begun       chan struct{}  // a launched turn's goroutine has started (launch; buffer of one)
	inFlight    atomic.Int64
	started     atomic.Int64
	reads       atomic.Int64
	errs        atomic.Int64
	abandoned   atomic.Int64            // reads given up on (deadline or timeout): a late answer may follow
	pool        connTally               // what the sessions' HTTP connections did
	http        client.HTTP             // the HTTP version, and the HTTP/2 pool the sessions share (nil: none)
	authLost    authWatch               // unauthorized reads: did the run lose its authorization?
	late        atomic.Pointer[lateCtx] // see lateContext

	// rereadClass is the class index of the listeners' re-reads in the
	// recorders (-1: none; listen.go).
	rereadClass int
	// listening is the run's listeners (nil: none), set before the
	// progress ticker starts, which reads their state so far each tick.
	listening *listeners

	// implemented is set once resources/read answered a read with a
	// result: the server implements it (readResult).
	implemented atomic.Bool
}

// schedule starts turns until the schedule ends or ctx is cancelled, and
// returns the bounds of the measured phase.
func (r *runner) schedule(ctx context.Context, start time.Time) (mStart, mEnd time.Time, partial bool) {
	warm := r.w.Load.Warmup
	mStart = start.Add(warm)
	if r.w.Load.Model == workload.ModelClosed {
		partial = r.closedLoop(ctx, start)
		return mStart, time.Now(), partial
	}
	var p pacer = &schedulePacer{turns: r.scheduleTurns()}
	if r.o.Schedule == nil {
		p = r.newPacer()
	}
	// One Sleeper for the run: it learns this machine's timer and sleep
	// lateness from the waits before, so it wakes just after each start
	// without spinning. A turn whose start passed while the scheduler was
	// away (a busy machine) is launched at once, each in turn: its lag is
	// recorded, its latency still counts from the intended start.
	var sleeper clock.Sleeper
	var measuredTurns int64
	for i := uint64(0); ; i++ {
		at, ok := p.next()
		if !ok {
			break
		}
		isWarm := at < warm
		if !isWarm && r.w.Load.Turns > 0 && measuredTurns >= int64(r.w.Load.Turns) {
			break
		}
		if !isWarm {
			measuredTurns++ // every index counts: the shards' union is the first Turns turns
		}
		if !r.o.Segment.Owns(i) {
			continue // another shard's turn (workload.Segment)
		}
		intended := start.Add(at)
		if !sleeper.SleepUntil(intended, ctx.Done(), nil) {
			return mStart, time.Now(), true
		}
		r.launch(ctx, i, intended, isWarm)
	}
	end := time.Now()
	if r.w.Load.Length() > 0 {
		end = mStart.Add(r.w.Load.Length()) // the schedule's own end, not the last turn's
	}
	return mStart, end, false
}

// closedLoop runs Concurrency workers that each start a turn as soon as
// their previous one ends: the closed model, where the intended start is
// the actual start by definition.
func (r *runner) closedLoop(ctx context.Context, start time.Time) (partial bool) {
	l := r.w.Load
	end := start.Add(l.Warmup + l.Duration)
	var next atomic.Uint64
	var measured atomic.Int64
	var wg sync.WaitGroup
	for range max(l.Concurrency, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				now := time.Now()
				if l.Duration > 0 && !now.Before(end) {
					return
				}
				isWarm := now.Sub(start) < l.Warmup
				if !isWarm && l.Turns > 0 && measured.Add(1) > int64(l.Turns) {
					return
				}
				r.inFlight.Add(1)
				r.turns.Add(1)
				r.runTurn(ctx, r.o.Segment.Turn(next.Add(1)-1), now, isWarm)
			}
		}()
	}
	wg.Wait()
	return ctx.Err() != nil
}

// launch starts turn i in its own goroutine unless max_in_flight turns are
// already running: then the turn is dropped, never started late (a late
// start would hide the overload). The turn is counted in flight before its
// goroutine starts, so a catch-up burst cannot launch past the cap before
// any of it counts.
//
// It returns once the turn's goroutine runs, so that the turn sends
// before the scheduler sleeps again: asleep in the OS, the scheduler
// holds its P, and a turn queued on it would wait out the sleep (lag p99
// 2-3 ms). Yielding (runtime.Gosched) was not enough: every 61st time
// Go's scheduler picks, it takes the global queue first, where a yielder
// goes, so about one turn in a hundred still waited a whole sleep (lag
// p99 1.1 ms in a third of the runs at 1,000 turns/s on one core). A wait
// on the turn's start cannot be reordered: the turn runs, and wakes the
// scheduler as it goes.
func (r *runner) launch(ctx context.Context, i uint64, intended time.Time, isWarm bool) {
	if limit := int64(r.w.Load.MaxInFlight); limit > 0 && r.inFlight.Load() >= limit {
		r.dropTurn(r.recorder(isWarm), i, intended, time.Time{}, r.turnReads(nil, i)) // at max_in_flight, on time
		return
	}
	r.inFlight.Add(1)
	r.turns.Add(1)
	go func() {
		r.begun <- struct{}{} // buffered: received below, never blocks
		r.runTurn(ctx, i, intended, isWarm)
	}()
	<-r.begun
}

// logFailure reports why a read failed, paced by r.failures, and each
// reason once whatever the URI: the reads a dead server left unanswered
// fail alike, and the same quote of its stderr three times only hides
// what came before. Keyed by the reason as it is, no string is built per
// failure (thousands a second under overload).
func (r *runner) logFailure(uri, why string) {
	if r.o.Logf != nil {
		if r.failed.first(why) {
			r.failures.Do(func() { r.o.Logf("read %s: %s", uri, why) })
		}
	}
}

// saidOnce remembers the messages said, up to a bound: a failure said
// once is not said again (past the bound, every message is new again; the
// pacing still holds).
type saidOnce struct {
	mu   sync.Mutex
	said map[string]struct{}
}

// first reports whether msg has not been said before, and remembers it.
func (s *saidOnce) first(msg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.said[msg]; ok {
		return false
	}
	if s.said == nil || len(s.said) >= 64 {
		s.said = make(map[string]struct{})
	}
	s.said[msg] = struct{}{}
	return true
}

func (r *runner) recorder(isWarm bool) *stats.Recorder {
	if isWarm {
		return r.warmup
	}
	return r.measured
}
