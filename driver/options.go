package driver

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/barrier"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// Overrides are a command line's changes to a workload, its flags already
// parsed into plain values: each one given replaces what the workload file
// says, so one file serves many runs. The zero value changes nothing; a
// nil pointer is a flag not given.
type Overrides struct {
	Target *targets.Target
	// Rate replaces load.rate and drops load.stages: a rate given on the
	// command line is the whole schedule.
	Rate *units.Rate
	// Duration replaces load.duration and drops load.turns and
	// load.stages, for the same reason.
	Duration *time.Duration
	// Turns replaces load.turns and drops load.duration and load.stages
	// (--turns, -n: a count of turns, as oha's and hey's -n is a count of
	// requests).
	Turns    *int
	Sessions *int
	// Warmup replaces load.warmup (0 runs none).
	Warmup *time.Duration
	// Concurrency is how many turns may be in flight, the split ghz makes
	// between when a turn starts and how many run at once: with Rate it
	// caps the open model (load.max_in_flight; turns beyond it are
	// dropped, counted, never started late); without Rate it is the closed
	// model's load.concurrency (a turn starts when one ends), and drops
	// the rate, the stages and a Poisson arrival that model refuses.
	Concurrency *int
	Protocol    *string
	// HTTPVersion replaces http.version (--http: 1.1, 2 or auto).
	HTTPVersion *string
	// Classes keeps only the mix classes of these names (none: all); a
	// name the mix does not have is an error.
	Classes []string
	// Headers are added to the workload's, replacing one of the same name.
	Headers map[string]string
	// MaxAnswer, above 0, replaces turn.max_answer.
	MaxAnswer int64
	// TraceSample replaces load.trace_sample: the share of turns traced.
	TraceSample *float64
	// AllowHosts are added to the workload's allow_hosts;
	// InsecureCredentials is set by the command line alone (no workload
	// key sets it: it is said each time).
	AllowHosts          []string
	InsecureCredentials bool
}

// Apply makes the changes to w, then validates it: a workload that the
// changes made invalid is refused before anything is started. What it
// changes of w's maps and slices it replaces, never writes into, so two
// runs made from one workload (ab's two sides) share nothing a change
// made for one of them.
func (o Overrides) Apply(w *workload.Workload) error {
	if o.Target != nil {
		w.Target = *o.Target
	}
	if o.Rate != nil {
		w.Load.Rate, w.Load.Stages = *o.Rate, nil
	}
	if o.Duration != nil {
		w.Load.Duration, w.Load.Turns, w.Load.Stages = *o.Duration, 0, nil
	}
	if o.Turns != nil {
		w.Load.Turns, w.Load.Duration, w.Load.Stages = *o.Turns, 0, nil
	}
	if o.Sessions != nil {
		w.Sessions = *o.Sessions
	}
	if o.Warmup != nil {
		w.Load.Warmup = *o.Warmup
	}
	o.applyConcurrency(&w.Load)
	if err := w.KeepClasses(o.Classes); err != nil {
		return err
	}
	if o.Protocol != nil {
		w.Protocol = *o.Protocol
	}
	if o.HTTPVersion != nil {
		w.HTTP.Version = *o.HTTPVersion
	}
	if len(o.Headers) > 0 {
		headers := maps.Clone(w.Headers)
		if headers == nil {
			headers = map[string]string{}
		}
		maps.Copy(headers, o.Headers)
		w.Headers = headers
	}
	if o.MaxAnswer > 0 {
		w.Turn.MaxAnswer = o.MaxAnswer
	}
	if o.TraceSample != nil {
		w.Load.TraceSample = o.TraceSample
	}
	w.AllowHosts = append(slices.Clip(w.AllowHosts), o.AllowHosts...)
	w.InsecureCredentials = o.InsecureCredentials
	return w.Validate()
}

// applyConcurrency sets the in-flight limit Concurrency asks for: the
// open model's cap beside a rate given with it, else the closed model.
func (o Overrides) applyConcurrency(l *workload.Load) {
	switch {
	case o.Concurrency == nil:
	case o.Rate != nil:
		l.Model, l.Concurrency, l.MaxInFlight = workload.ModelOpen, 0, *o.Concurrency
	default:
		l.Model, l.Concurrency = workload.ModelClosed, *o.Concurrency
		l.Rate, l.Stages, l.Arrival = units.Rate{}, nil, workload.ArrivalConstant
	}
}

// For is the run of w as ov changes it, with what o already says of how
// this process makes it (the embedded server's command, the client's name,
// the shard, the handshake timeout...). The run's workload is a copy of w
// with ov applied (the caller's w is left as it was, so one workload makes
// many runs: ab's sides, capacity's steps); it is checked that this
// process's share of it exists. Progress, Logf and Stderr are left as o
// has them: they are how this process shows the run, not what it runs.
func (o Options) For(w *workload.Workload, ov Overrides) (Options, error) {
	if w == nil {
		return Options{}, fmt.Errorf("driver: no workload")
	}
	run := *w
	if o.HandshakeTimeout > 0 { // the flag's limit is the run's: its saved workload says so
		run.Load.HandshakeTimeout = o.HandshakeTimeout
	}
	if err := ov.Apply(&run); err != nil {
		return Options{}, err
	}
	if _, err := run.Segment(o.Segment); err != nil {
		return Options{}, err
	}
	o.Workload = &run
	return o, nil
}

// Aim is what the workload allows the run to reach: its allow_hosts and
// whether headers may go over plain http to a host other than loopback.
func (o Options) Aim() targets.Aim {
	return targets.Aim{AllowHosts: o.Workload.AllowHosts, InsecureCredentials: o.Workload.InsecureCredentials}
}

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
	// auth block. One with a Close method (an auth.Source) is closed when
	// the run's reads are over, before they are counted.
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
	Progress func(stats.Progress)
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
	// Together, when set, starts the schedule instead of StartAt and
	// Barrier: it is called once the sessions are open and the plan is
	// built, and the schedule starts at the instant it returns (waited
	// for). ab gives both sides of a round one rendezvous, so that base
	// and new begin their identical schedules at the same moment and every
	// stall of the machine meets both (package ab).
	Together func(ctx context.Context) (time.Time, error)
	// Observe, when set, is called once before the first turn (after the
	// handshake and discovery) with what the run knows of its target
	// (stats.Ready); the observers it returns (nil: none) are told of every
	// read and turn the warmup and the measured phase record
	// (stats.Observer). Live metrics (metrics.Registry.Observer) and ab's
	// windows (ab.SideRun.Observe) are handed here by the command and
	// runner.Job; the
	// driver knows nothing of them.
	Observe func(stats.Ready) (warmup, measured stats.Observer)
	// Listened, when set, is given what the run's listeners recorded (a
	// workload with a listen section) once the run is over, before Run
	// returns: live metrics publish the freshness loop with it before
	// their final push (metrics.Live.Subscriptions, wired by runner.Job).
	Listened func(*stats.Listening)
	// Schedule, when set, is the run's explicit open-loop schedule
	// (schedule.go): its turns replace the pacer's and the plan's.
	Schedule *Schedule
}
