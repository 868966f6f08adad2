package driver

import (
	"fmt"
	"time"

	"github.com/readbench/readbench/barrier"
	"github.com/readbench/readbench/client"
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
	Protocol *string
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
// changes made invalid is refused before anything is started.
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
	if err := w.KeepClasses(o.Classes); err != nil {
		return err
	}
	if o.Protocol != nil {
		w.Protocol = *o.Protocol
	}
	for name, value := range o.Headers {
		if w.Headers == nil {
			w.Headers = map[string]string{}
		}
		w.Headers[name] = value
	}
	if o.MaxAnswer > 0 {
		w.Turn.MaxAnswer = o.MaxAnswer
	}
	w.AllowHosts = append(append([]string(nil), w.AllowHosts...), o.AllowHosts...)
	w.InsecureCredentials = o.InsecureCredentials
	return w.Validate()
}

// Settings are what a command sets of a run besides its workload: the
// changes to it, and how this process reaches the target and shares the
// run with others. Every command that runs the driver builds its Options
// from them with NewOptions, so no command spells Options out.
type Settings struct {
	Overrides Overrides
	// EmbeddedCommand starts the simulated server (see
	// Options.EmbeddedCommand); Client is the clientInfo sent to servers.
	EmbeddedCommand []string
	Client          client.Implementation
	ServerPID       int              // see Options.ServerPID
	Segment         workload.Segment // see Options.Segment
	StartAt         time.Time        // see Options.StartAt
	Barrier         *barrier.Config  // see Options.Barrier
	// HandshakeTimeout bounds opening a session (see Options.HandshakeTimeout).
	HandshakeTimeout time.Duration
}

// NewOptions applies s.Overrides to w in place (the caller's workload is
// then the one the run and its result record), checks that this process's
// share of it exists, and returns the run's Options. Progress, Logf and
// Stderr are left to the caller: they are how this process shows the run,
// not what it runs.
func NewOptions(w *workload.Workload, s Settings) (Options, error) {
	if w == nil {
		return Options{}, fmt.Errorf("driver: no workload")
	}
	if s.HandshakeTimeout > 0 { // the flag's limit is the run's: its saved workload says so
		w.Load.HandshakeTimeout = s.HandshakeTimeout
	}
	if err := s.Overrides.Apply(w); err != nil {
		return Options{}, err
	}
	if _, err := w.Shard(s.Segment); err != nil {
		return Options{}, err
	}
	return Options{
		Workload:         w,
		EmbeddedCommand:  s.EmbeddedCommand,
		Client:           s.Client,
		ServerPID:        s.ServerPID,
		Segment:          s.Segment,
		StartAt:          s.StartAt,
		Barrier:          s.Barrier,
		HandshakeTimeout: s.HandshakeTimeout,
	}, nil
}

// Aim is what the workload allows the run to reach: its allow_hosts and
// whether headers may go over plain http to a host other than loopback.
func (o Options) Aim() targets.Aim {
	return targets.Aim{AllowHosts: o.Workload.AllowHosts, InsecureCredentials: o.Workload.InsecureCredentials}
}
