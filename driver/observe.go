package driver

import (
	"github.com/readbench/readbench/stats"
)

// observe hands the run's recorders the observers Options.Observe returns
// for it, if any: every read and turn each phase records is then told to
// them as it is recorded (stats.Observer), so live metrics count exactly
// what the result will. ready is what the run knows once its sessions are
// open and its plan is built, in stats' plain terms, so that what
// observes a run (metrics, ab) never imports the driver.
func (r *runner) observe(ready stats.Ready) {
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
