package driver

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// progressTicker calls Options.Progress once a second from the
// schedule's start until the run has drained: through the warmup, the
// measured phase and the wait for the turns in flight after the schedule
// (Progress.Draining), so a view never freezes on the schedule's last
// second while the run still waits.
type progressTicker struct {
	draining atomic.Bool
	nudge    chan struct{} // drain's: send a Progress now
	done     chan struct{}
	wg       sync.WaitGroup
	once     sync.Once
}

// startProgress starts the ticker of a schedule that starts at start;
// with no Options.Progress it does nothing. drain and stop must be called
// in that order (stop alone is fine too); stop waits for the goroutine.
func (r *runner) startProgress(ctx context.Context, start time.Time) *progressTicker {
	t := &progressTicker{nudge: make(chan struct{}, 1), done: make(chan struct{})}
	if r.o.Progress == nil {
		return t
	}
	stretches := scheduleStretches(r.w.Load)
	share := float64(max(r.o.Segment.N, 1))
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			var now time.Time
			select {
			case <-t.done:
				return
			case <-ctx.Done():
				return
			case now = <-tick.C:
			case <-t.nudge:
				now = time.Now()
			}
			r.o.Progress(r.progressAt(now.Sub(start), t.draining.Load(), stretches, share))
		}
	}()
	return t
}

// progressAt is the run's Progress el into the schedule.
func (r *runner) progressAt(el time.Duration, draining bool, stretches []stretch, share float64) stats.Progress {
	warm := el < r.w.Load.Warmup && !draining
	p := stats.Progress{
		Elapsed: el, Total: r.w.Load.Warmup + r.w.Load.Length(), Warmup: warm, Draining: draining,
		Turns: r.started.Load(), Reads: r.reads.Load(), Errors: r.errs.Load(), InFlight: r.inFlight.Load(),
		P99:   r.measured.ReadP99(),
		Phase: r.recorder(warm).Live(),
	}
	last := int(el/time.Second) - 1 // the last whole second, in the recorder of its phase
	p.SecondWarmup = time.Duration(last)*time.Second < r.w.Load.Warmup
	p.Phase.SecondP99 = r.recorder(p.SecondWarmup).SecondP99(last)
	if r.listening != nil {
		p.Listening = r.listening.soFar(time.Now())
	}
	if asked, ok := rateAt(stretches, el.Seconds()); ok && !draining && r.w.Load.Model != workload.ModelClosed {
		p.Asked = asked / share
	}
	return p
}

// drain says the schedule is over: the Progress that follow say
// Draining, the first of them at once.
func (t *progressTicker) drain() {
	t.draining.Store(true)
	select {
	case t.nudge <- struct{}{}:
	default:
	}
}

// stop ends the ticker and waits for it; later calls do nothing.
func (t *progressTicker) stop() {
	t.once.Do(func() {
		close(t.done)
		t.wg.Wait()
	})
}
