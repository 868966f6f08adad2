package stats

import "time"

// Progress is a run's state once a second (and as its drain begins),
// the driver's to fill: what a progress line, the live view and live
// metrics show, one type from the driver to each of them.
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
	// view draws, taken once a second from the recorder (Live).
	Phase Live
	// SecondWarmup says that second (Phase.SecondP99's) was the warmup's,
	// so a view can keep it apart from the measured seconds.
	SecondWarmup bool
	// Listening is the listeners' state so far (nil: the run has none),
	// what a live view and live metrics show of them: their counts, the
	// notification accounting so far (a change untold for longer than
	// the grace the run's end gives late notifications counts as
	// missed; FreshnessSummary.Open the subscriptions open now) and the
	// ack and notification latency. No timeline, spread or breakdowns:
	// the result has those.
	Listening *Listening
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
