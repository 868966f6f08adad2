package driver

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/barrier"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/clock"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/servercost"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"golang.org/x/time/rate"
)

// Options configure a run. The workload says what to do; the rest is what
// only the caller knows.
type Options struct {
	Workload *workload.Workload
	// EmbeddedCommand starts the simulated server for the embedded target:
	// the CLI passes its own executable with "serve --stdio", so the server
	// is a real child process behind real pipes.
	EmbeddedCommand []string
	// Stderr receives stdio servers' stderr (nil: kept only to explain a
	// server that dies).
	Stderr io.Writer
	// Client is the clientInfo sent to servers.
	Client client.Implementation
	// Auth, when set, authorizes every HTTP request of the run (an
	// OAuth-protected target); its token requests become the result's
	// auth block.
	Auth auth.Tokens
	// HandshakeTimeout bounds opening each session: --handshake-timeout,
	// which overrides the workload's load.handshake_timeout (0: that key,
	// or the client's default; see Options.HandshakeLimit).
	HandshakeTimeout time.Duration
	// Setup, when set, is told each step of connecting and discovering
	// before the first turn (see SetupStep), from the run's goroutines,
	// one call at a time.
	Setup func(SetupStep)
	// Progress, when set, is called about once a second from a goroutine
	// the run owns.
	Progress func(Progress)
	// Logf, when set, receives why reads failed (a dead server, an
	// unusable answer): the first few, then one every few seconds, so a
	// failing run explains itself without flooding the terminal.
	Logf func(format string, args ...any)
	// ServerPID is a server process on this machine (an HTTP target's) whose
	// CPU and memory are sampled with the stdio children's; 0: none.
	ServerPID int
	// Segment is the share of the run this process drives (--segment k/n;
	// the zero value is the whole run): see workload.Segment for the rule
	// that makes n shards together exactly the whole run.
	Segment workload.Segment
	// StartAt, when set, is the wall-clock moment the schedule starts
	// (--start-at): sessions are opened first, then the run waits, so n
	// shards on n machines start their schedules together. A run that is
	// still connecting at StartAt starts its schedule at StartAt anyway:
	// its first turns are late, and their lag and latency say so.
	StartAt time.Time
	// Barrier, when set, starts the schedule instead of StartAt
	// (--barrier DIR): sessions are opened first, then this shard waits
	// for the run's other shards in the folder and starts at the instant
	// they all compute (package barrier).
	Barrier *barrier.Config
	// Observe, when set, is called once before the first turn (after the
	// handshake and discovery) with what the run knows of its target; the
	// observers it returns (nil: none) are told of every read and turn the
	// warmup and the measured phase record (stats.Observer). Live metrics
	// are wired here by the command; the driver knows nothing of them.
	Observe func(Ready) (warmup, measured stats.Observer)
	// Schedule, when set, is the run's explicit open-loop schedule
	// (schedule.go): its turns replace the pacer's and the plan's.
	Schedule *Schedule
}

// Progress is a live snapshot for a progress line.
type Progress struct {
	Elapsed, Total time.Duration
	Warmup         bool
	// Draining says the schedule is over and the run waits for the turns
	// still in flight (each ends by its deadline) and for late answers:
	// Elapsed may pass Total meanwhile. The first Progress of the drain
	// is sent as it begins, not at the next whole second.
	Draining bool
	Turns    int64         // turns started
	Reads    int64         // reads finished
	Errors   int64         // reads finished with an error outcome
	InFlight int64         // turns in flight
	P99      time.Duration // read latency p99 so far (measured phase)
	// Asked is the turns per second the schedule asks for at Elapsed
	// (this process's share; 0 for the closed model, which asks for none,
	// and past the schedule's end).
	Asked float64
	// Phase is the current phase's figures so far (the warmup's while
	// Warmup), with the read p99 of the last whole second: what a live
	// view draws, taken once a second from the recorder (stats.Live).
	Phase stats.Live
	// SecondWarmup says that second (Phase.SecondP99's) was the warmup's,
	// so a view can keep it apart from the measured seconds.
	SecondWarmup bool
}

// Achieved is the turn rate achieved so far: over the schedule's time,
// so the drain after it (no turn started) does not lower it.
func (p Progress) Achieved() float64 {
	el := p.Elapsed
	if p.Draining && p.Total > 0 {
		el = min(el, p.Total)
	}
	if el <= 0 {
		return 0
	}
	return float64(p.Turns) / el.Seconds()
}

// Measurements is what a finished run produced: what it recorded and what
// it learned of the target. Result turns it into the result document.
type Measurements struct {
	// Workload is the workload the run was given (Options.Workload: the
	// whole run's, before its share was taken) and Segment the share of it
	// this process drove: a result records both.
	Workload        *workload.Workload
	Segment         workload.Segment
	Barrier         *Barriered // how --barrier started this shard (nil: it did not)
	Started, Ended  time.Time
	Measured        time.Duration // length of the measured phase
	Partial         bool          // interrupted before the schedule ended
	Target          targets.Target
	Server          client.Implementation
	ProtocolVersion string
	// AskedRate is the turns per second the schedule asked for over the
	// measured phase: the load's rate, or the mean of its stages (ramps
	// included); 0 for the closed model, which asks for no rate.
	AskedRate   float64
	Run, Warmup *stats.Phase
	// LateObservable says whether an answer to a cancelled read could be
	// seen on this transport (see client.Session.LateAnswersObservable);
	// LateWatch is how long after the last turn the run kept watching.
	LateObservable bool
	LateWatch      time.Duration
	Cost           servercost.Summary // the server's CPU, memory and cold start
	// GeneratorPeakRSS is this process's peak resident memory at the end
	// of the run (servercost.SelfPeakRSS; 0: unknown): the reader's cost.
	GeneratorPeakRSS int64
	// GeneratorCPU is this process's CPU time over the measured phase
	// (its children, stdio servers, not included), sampled as the
	// server's is: beside the server's cost it shows which side of the
	// measurement is the busier (0: unknown).
	GeneratorCPU time.Duration
	// CPUPressure is the share of the measured phase in which some task
	// on this machine waited for a CPU (nil: unknown): a server on the
	// same machine is slowed by it, whatever its own work.
	CPUPressure *float64
	// Digests is what a read of each URI returned (sampled: digests.go),
	// warmup reads included.
	Digests map[string]results.Digest
	// AuthLost is the one line saying that the run lost its authorization
	// (the server kept refusing its reads: auth.go), "" when it did not.
	AuthLost string
	// AuthClient is who the run obtained its tokens as (nil: no tokens,
	// or a source that cannot say).
	AuthClient *results.AuthClient
	// Sessions is how connecting went (asked, connected, failed and why)
	// and, with churn, how many sessions were opened and replaced.
	Sessions SessionCounts
	// Connections is what the sessions' HTTP connections did over the
	// run (warmup included); nil for a target without them (stdio).
	Connections *client.ConnStats
}

// Context causes, so a cancelled read can tell a deadline from a timeout.
var (
	errDeadline    = errors.New("turn deadline")
	errReadTimeout = errors.New("read timeout")
)

// Run executes the workload and returns what it measured. Cancelling ctx
// stops scheduling, cancels reads in flight and returns a partial report.
func Run(ctx context.Context, o Options) (*Measurements, error) {
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
	r := &runner{
		o: o, w: w,
		failures: rate.Sometimes{First: 3, Interval: 5 * time.Second},
		strays:   rate.Sometimes{First: 1, Interval: 5 * time.Second},
		measured: stats.NewRecorder(classes),
		warmup:   stats.NewRecorder(classes),
		cold:     servercost.NewColdStartRecorder(),
		begun:    make(chan struct{}, 1),
		setup:    setupOf(o.Setup),
	}
	r.enableAuth()
	conns, err := r.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer r.closeSessions()
	r.conns = conns
	// The plan waits for the handshake: a server that advertises sim: URIs
	// (client.Conn.SimURIs) has mime+size classes synthesized on any
	// transport, other servers need discovery.
	if r.plan, err = r.buildPlan(ctx, conns[0].SimURIs()); err != nil {
		return nil, err
	}
	r.setup.say(SetupStep{Stage: StageReady})
	rep := &Measurements{
		Workload: o.Workload, Segment: o.Segment,
		Target: w.Target, Server: conns[0].Server(), ProtocolVersion: conns[0].ProtocolVersion(),
		AskedRate: r.askedRate(), LateObservable: conns[0].LateAnswersObservable(),
	}
	r.observe(Ready{Workload: w.Name, Target: w.Target, Server: rep.Server, Segment: o.Segment, Classes: classes, AskedRate: rep.AskedRate})
	startAt, bar, err := startOf(ctx, o)
	if err != nil {
		return nil, err
	}
	rep.Barrier = bar
	cost := servercost.Start(ctx, costPIDs(conns, o.ServerPID), servercost.Every)
	defer cost.Stop() // before closeAll (defers run last first): the children are still there
	self := servercost.Start(ctx, []int{os.Getpid()}, servercost.Every)
	defer self.Stop()
	rep.Started = time.Now()
	if !startAt.IsZero() {
		rep.Started = startAt
	}
	r.measured.StartTimeline(rep.Started) // both phases share the run's seconds
	r.warmup.StartTimeline(rep.Started)
	progress := r.startProgress(ctx, rep.Started)
	defer progress.stop()
	measuredStart, measuredEnd, partial := r.schedule(ctx, rep.Started)
	progress.drain() // the schedule is over: the turns in flight end
	r.turns.Wait()
	if r.abandoned.Load() > 0 && rep.LateObservable {
		time.Sleep(lateGrace) // let answers the server should not have sent arrive
		rep.LateWatch = lateGrace
	}
	progress.stop()
	rep.Ended = time.Now()
	rep.Partial = partial
	if !measuredStart.IsZero() && measuredEnd.After(measuredStart) {
		rep.Measured = measuredEnd.Sub(measuredStart)
	}
	implemented := r.implemented.Load() // a read of either phase answered with a result
	r.measured.Settle(implemented)
	r.warmup.Settle(implemented)
	rep.Run, rep.Warmup = r.measured.Phase(), r.warmup.Phase()
	rep.Sessions = r.sessions
	rep.Sessions.Opened, rep.Sessions.Replaced, rep.Sessions.ReplaceFailed = r.opened.Load(), r.replaced.Load(), r.replaceFailed.Load()
	rep.Connections = r.pool.total(r.slots)
	rep.GeneratorPeakRSS, _ = servercost.SelfPeakRSS()
	rep.Digests = r.digests.snapshot()
	r.finishAuth(rep)
	rep.Cost = cost.Stop().Summarize(measuredStart, measuredEnd, rep.Run.Service.Count()).WithCold(r.cold.Result())
	if g := self.Stop().Summarize(measuredStart, measuredEnd, 0); g.Available {
		rep.GeneratorCPU = g.CPU
		if g.PressureKnown {
			rep.CPUPressure = &g.CPUPressure
		}
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
	plan     *workload.Plan
	conns    []client.Conn // the sessions that connected before the schedule
	slots    []*slot       // one per connected session: its current session (churn.go)
	sessions SessionCounts // how connecting went
	closing  sync.WaitGroup
	// opened counts sessions opened (initial and replacements), replaced
	// those churn replaced, replaceFailed replacements that failed to open.
	opened, replaced, replaceFailed atomic.Int64
	measured                        *stats.Recorder
	warmup                          *stats.Recorder
	cold                            *servercost.ColdStartRecorder
	setup                           *setupTell // Options.Setup, one call at a time

	failures  rate.Sometimes // paces Options.Logf
	failed    saidOnce       // the failures already logged: each is said once
	strays    rate.Sometimes // paces what stdio servers print on stdout that is not JSON-RPC
	noMethod  sync.Once      // says once that the server does not implement the read's method
	misused   sync.Once      // says once that the server answered -32601 worded as a missing resource
	fresh     freshness      // cache hints: what a host honouring them would not send
	digests   contentDigests
	turns     sync.WaitGroup // every turn goroutine
	begun     chan struct{}  // a launched turn's goroutine has started (launch; buffer of one)
	inFlight  atomic.Int64
	started   atomic.Int64
	reads     atomic.Int64
	errs      atomic.Int64
	abandoned atomic.Int64            // reads given up on (deadline or timeout): a late answer may follow
	pool      connTally               // what the sessions' HTTP connections did
	authLost  authWatch               // unauthorized reads: did the run lose its authorization?
	late      atomic.Pointer[lateCtx] // see lateContext

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
		r.dropTurn(r.recorder(isWarm), intended, time.Time{}, r.turnReads(nil, i)) // at max_in_flight, on time
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
// reason once: the reads a dead server left unanswered fail alike, and
// the same quote of its stderr three times only hides what came before.
func (r *runner) logFailure(uri, why string) {
	if r.o.Logf != nil {
		if r.failed.first(uri + "\x00" + why) {
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
