package driver

import (
	"fmt"
	"maps"
	"slices"
	"time"

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
	// Classes keeps only the mix classes of these names (none: all); a
	// name the mix does not have is an error.
	Classes []string
	// Headers are added to the workload's, replacing one of the same name.
	Headers map[string]string
	// MaxAnswer, above 0, replaces turn.max_answer.
	MaxAnswer int64
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
