package driver

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/readbench/readbench/workload"
)

// A pacer says when each turn of an open-model run should start, as an
// offset from the run's start. It knows nothing of in-flight limits or
// sessions: "when to start" is kept apart from "how many may run".
// Offsets are intended start times; latency is measured from them, so a
// generator that falls behind shows up in the numbers instead of hiding.
type pacer interface {
	// next returns the intended start of the next turn; ok is false when
	// the schedule is over.
	next() (at time.Duration, ok bool)
}

// stretch is a stretch of the schedule with a rate going linearly from
// `from` to `to` turns per second (equal for a constant rate).
type stretch struct {
	from, to float64
	length   time.Duration
}

// constantPacer spaces turns evenly: turn k of a stretch of constant rate
// r starts at k/r. With a ramp the rate grows linearly, so the number of
// turns started by time t is N(t) = r0·t + (r1−r0)·t²/(2T); turn k starts
// where N(t) = k, the positive root of that quadratic.
type constantPacer struct {
	stretches []stretch
	seg       int
	base      time.Duration // start of the current stretch
	k         float64       // index of the next turn within the stretch
	limit     uint64        // stop after this many turns (0: no limit)
	issued    uint64
}

func (p *constantPacer) next() (time.Duration, bool) {
	if p.limit > 0 && p.issued >= p.limit {
		return 0, false
	}
	for p.seg < len(p.stretches) {
		s := p.stretches[p.seg]
		T := s.length.Seconds()
		// The schedule's clock is the nanosecond: turn k's time is rounded
		// to it before it is held to the stretch's end, so that float
		// rounding cannot put a turn a fraction of a nanosecond before the
		// end (n turns over L as rate n/L: n/(n/L) is not always L) and
		// start a turn the stretch does not have: a stage of one turn in
		// six minutes starts one.
		if t, ok := stretchTime(s, p.k); ok && t < T+1 {
			if at := time.Duration(math.Round(t * float64(time.Second))); at < s.length {
				p.k++
				p.issued++
				return p.base + max(at, 0), true
			}
		}
		// Carry the fraction of a turn left at the stretch's end, so that a
		// change of rate does not skip or double a turn.
		total := s.from*T + (s.to-s.from)*T/2
		p.k -= total
		p.base += s.length
		p.seg++
	}
	return 0, false
}

// stretchTime solves N(t) = k within a stretch.
func stretchTime(s stretch, k float64) (float64, bool) {
	T := s.length.Seconds()
	a := (s.to - s.from) / (2 * T)
	if math.Abs(a) < 1e-12 {
		if s.from <= 0 {
			return 0, false
		}
		return k / s.from, true
	}
	disc := s.from*s.from + 4*a*k
	if disc < 0 {
		return 0, false
	}
	return (-s.from + math.Sqrt(disc)) / (2 * a), true
}

// poissonPacer draws the arrivals of many independent users: a Poisson
// process whose rate follows the schedule. It thins a process of the peak
// rate (Lewis and Shedler): candidates come with exponential gaps of mean
// 1/peak and each is kept with probability rate(t)/peak, which is exact
// for any rate, so a ramp from 0 and a paused stage (rate 0) behave as
// scheduled instead of ending the run. The draws come from the workload
// seed, so a run's schedule can be reproduced.
type poissonPacer struct {
	rng       *rand.Rand
	stretches []stretch
	t         float64 // seconds
	limit     uint64
	issued    uint64
}

func (p *poissonPacer) next() (time.Duration, bool) {
	if p.limit > 0 && p.issued >= p.limit {
		return 0, false
	}
	peak := 0.0
	for _, s := range p.stretches {
		peak = max(peak, s.from, s.to)
	}
	if peak <= 0 {
		return 0, false
	}
	for {
		p.t += p.rng.ExpFloat64() / peak
		rate, ok := rateAt(p.stretches, p.t)
		if !ok {
			return 0, false
		}
		if p.rng.Float64()*peak < rate {
			p.issued++
			return time.Duration(p.t * float64(time.Second)), true
		}
	}
}

// rateAt is the scheduled rate at t seconds; ok is false past the end.
func rateAt(stretches []stretch, t float64) (float64, bool) {
	for _, s := range stretches {
		T := s.length.Seconds()
		if t < T {
			return s.from + (s.to-s.from)*t/T, true
		}
		t -= T
	}
	return 0, false
}

// askedRate is the mean rate the load asks for over its measured phase
// (after the warmup): the integral of the scheduled rate over that phase
// divided by its length. A run ended by a turn count asks for its first
// rate; the closed model asks for none.
func askedRate(l workload.Load) float64 {
	if l.Model == workload.ModelClosed {
		return 0
	}
	length := l.Length()
	if length <= 0 || length >= time.Duration(1<<62-1) {
		if len(l.Stages) > 0 {
			return l.Stages[0].Rate.PerSecond
		}
		return l.Rate.PerSecond
	}
	from, to := l.Warmup.Seconds(), (l.Warmup + length).Seconds()
	var turns, t0 float64
	for _, s := range scheduleStretches(l) {
		T := s.length.Seconds()
		a, b := max(from, t0), min(to, t0+T)
		if b > a { // the rate is linear in the stretch: integrate it exactly
			ra := s.from + (s.to-s.from)*(a-t0)/T
			rb := s.from + (s.to-s.from)*(b-t0)/T
			turns += (ra + rb) / 2 * (b - a)
		}
		t0 += T
	}
	return turns / (to - from)
}

// newPacer builds the open-model schedule from the workload: the warmup,
// then the measured run (one rate, or the stages).
func (r *runner) newPacer() pacer {
	stretches := scheduleStretches(r.w.Load)
	if r.w.Load.Arrival == workload.ArrivalPoisson {
		return &poissonPacer{rng: rand.New(rand.NewPCG(uint64(r.w.Seed), 0x9e3779b97f4a7c15)), stretches: stretches}
	}
	return &constantPacer{stretches: stretches}
}

// scheduleStretches turns the load into stretches of the schedule. Stages come after
// the warmup, which runs at the rate the stages start from; a ramping
// first stage starts from the load's rate.
func scheduleStretches(l workload.Load) []stretch {
	var stretches []stretch
	if len(l.Stages) > 0 {
		prev := l.Rate.PerSecond
		if l.Warmup > 0 {
			warm := l.Stages[0].Rate.PerSecond
			if l.Stages[0].Ramp && prev > 0 {
				warm = prev
			}
			stretches = append(stretches, stretch{from: warm, to: warm, length: l.Warmup})
		}
		for _, st := range l.Stages {
			from := st.Rate.PerSecond
			if st.Ramp {
				from = prev
			}
			stretches = append(stretches, stretch{from: from, to: st.Rate.PerSecond, length: st.For})
			prev = st.Rate.PerSecond
		}
	} else {
		length := l.Warmup + l.Duration
		if l.Turns > 0 && l.Duration == 0 {
			length = time.Duration(1<<62 - 1) // ended by the turn count
		}
		stretches = []stretch{{from: l.Rate.PerSecond, to: l.Rate.PerSecond, length: length}}
	}
	return stretches
}
