package driver

import (
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// Ready is what a run knows once its sessions are open and its plan is
// built, just before its first turn: what live metrics label their series
// with (Options.Observe).
type Ready struct {
	Workload  string // the workload's name
	Target    targets.Target
	Server    client.Implementation
	Segment   workload.Segment
	Classes   []stats.ClassInfo // in the order of stats.ReadSample.Class
	AskedRate float64           // turns per second asked over the measured phase (0: closed model)
}

// observe hands the run's recorders the observers Options.Observe returns
// for it, if any: every read and turn each phase records is then told to
// them as it is recorded (stats.Observer), so live metrics count exactly
// what the result will.
func (r *runner) observe(ready Ready) {
	if r.o.Observe == nil {
		return
	}
	warmup, measured := r.o.Observe(ready)
	if warmup != nil {
		r.warmup.SetObserver(warmup)
	}
	if measured != nil {
		r.measured.SetObserver(measured)
	}
}
