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
func (r *runner) progressAt(el time.Duration, draining bool, stretches []stretch, share float64) Progress {
	warm := el < r.w.Load.Warmup && !draining
	p := Progress{
		Elapsed: el, Total: r.w.Load.Warmup + r.w.Load.Length(), Warmup: warm, Draining: draining,
		Turns: r.started.Load(), Reads: r.reads.Load(), Errors: r.errs.Load(), InFlight: r.inFlight.Load(),
		P99:   r.measured.ReadP99(),
		Phase: r.recorder(warm).Live(),
	}
	last := int(el/time.Second) - 1 // the last whole second, in the recorder of its phase
	p.SecondWarmup = time.Duration(last)*time.Second < r.w.Load.Warmup
	p.Phase.SecondP99 = r.recorder(p.SecondWarmup).SecondP99(last)
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
