package servercost

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Every is how often the server's processes are sampled: often enough
// for a peak over a short run and a slope over a minute (FitSlope), rare enough (two small /proc
// reads per process) to cost the generator nothing measurable.
const Every = 250 * time.Millisecond

// maxSamples bounds a long run's memory: past it every other sample is
// dropped and the interval doubled, which keeps the start, the end, the
// shape of the curve and so the slope.
const maxSamples = 1 << 15

// Sample is the server's processes at one instant, summed over them.
type Sample struct {
	At  time.Time
	CPU time.Duration // user + system CPU time since each process started
	RSS int64         // resident memory, bytes
	// Stall is the machine's CPU pressure: the total time some task was
	// ready to run and waited for a CPU (/proc/pressure/cpu "some"),
	// since boot; -1 where it cannot be read.
	Stall time.Duration
}

// Trace is what a sampler saw: plain data, summarised by Summarize.
type Trace struct {
	Available bool
	Reason    string // why not, when not Available
	PIDs      []int
	Samples   []Sample
	Errors    int // samples of a process that could not be read (it may have exited)
}

// Sampler samples the CPU time and resident memory of a set of
// processes from a goroutine it owns, until Stop.
type Sampler struct {
	pids  []int
	every time.Duration
	tick  int64 // clock ticks per second, for /proc/PID/stat's times
	last  []Sample
	rep   Trace

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// Start takes a first sample at once (so the start is the state
// after the handshake, not whatever the sampler's first tick finds) and
// then one every every, until Stop or ctx ends. No pids, or a system
// without /proc, gives a sampler whose report says why it has nothing.
func Start(ctx context.Context, pids []int, every time.Duration) *Sampler {
	c := &Sampler{
		pids: pids, every: max(every, 10*time.Millisecond),
		last: make([]Sample, len(pids)),
		rep:  Trace{PIDs: pids},
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	switch {
	case runtime.GOOS != "linux":
		c.rep.Reason = "not available on " + runtime.GOOS + ": readbench reads a server's cost from Linux's /proc"
	case len(pids) == 0:
		c.rep.Reason = "not sampled: the target is not a process readbench started (stdio), and no --server-pid was given"
	}
	if c.rep.Reason != "" {
		close(c.done)
		return c
	}
	c.tick = clockTicks()
	if err := c.sample(true); err != nil {
		c.rep.Reason = "not available: " + err.Error()
		close(c.done)
		return c
	}
	c.rep.Available = true
	go c.loop(ctx)
	return c
}

func (c *Sampler) loop(ctx context.Context) {
	defer close(c.done)
	tk := time.NewTicker(c.every)
	defer tk.Stop()
	for {
		select {
		case <-tk.C:
			_ = c.sample(false)
			if len(c.rep.Samples) > maxSamples {
				c.thin()
				c.every *= 2
				tk.Reset(c.every)
			}
		case <-c.stop:
			_ = c.sample(false)
			return
		case <-ctx.Done():
			_ = c.sample(false)
			return
		}
	}
}

// Stop ends the sampling with a last sample and returns what was seen.
// It may be called more than once; every call returns the same report.
func (c *Sampler) Stop() Trace {
	c.once.Do(func() { close(c.stop) })
	<-c.done
	return c.rep
}

// sample reads every process once and appends their sum. A process that
// cannot be read keeps its last values (its CPU time is final once it has
// exited); on the first sample, strict, that is an error instead: the pid
// is wrong or not ours to read.
func (c *Sampler) sample(strict bool) error {
	now := time.Now()
	var sum Sample
	for i, pid := range c.pids {
		s, err := readProcCost(pid, c.tick)
		switch {
		case err != nil && strict:
			return fmt.Errorf("process %d: %w", pid, err)
		case err != nil:
			c.rep.Errors++
		default:
			c.last[i] = s
		}
		sum.CPU += c.last[i].CPU
		sum.RSS += c.last[i].RSS
	}
	sum.At, sum.Stall = now, -1
	if st, err := readCPUStall(); err == nil {
		sum.Stall = st
	}
	c.rep.Samples = append(c.rep.Samples, sum)
	return nil
}

// thin drops every other sample, keeping the first and the last.
func (c *Sampler) thin() {
	s := c.rep.Samples
	kept := s[:0]
	for i := range s {
		if i%2 == 0 || i == len(s)-1 {
			kept = append(kept, s[i])
		}
	}
	c.rep.Samples = kept
}

// Summary is the server's cost over a run, in plain units: what a result
// document records (results.ServerCostOf renders it for the result file).
type Summary struct {
	Available bool
	Reason    string
	Processes int
	Samples   int
	// CPU is the CPU time spent in the measured phase, interpolated
	// between the samples around its bounds.
	CPU             time.Duration
	Reads           int64         // reads answered in the measured phase
	CPUPer1000Reads time.Duration // 0 without reads
	// CPUPressure is the share of the measured phase (0..1) in which some
	// task on the machine waited for a CPU; PressureKnown is false where
	// the kernel does not report it. A server on the same machine that is
	// made to wait so is slowed by the machine, not by its own work.
	CPUPressure   float64
	PressureKnown bool
	// RSS over the whole sampling (handshake to the end of the run).
	RSSStart, RSSPeak, RSSEnd int64
	RSSGrowth                 int64 // end - start, bytes
	// RSSSlope is the least-squares slope over the samples, when the
	// run was long enough to fit one (FitSlope): a leak shows as a
	// steady positive slope well above its standard error.
	RSSSlope Slope
	// Cold start (stdio targets), see ColdStart.
	ColdStart          bool
	SpawnToFirstAnswer time.Duration
	Handshake          time.Duration
	FirstRead          time.Duration
}

// Summarize computes the figures for the measured phase [from, to] and
// reads answered in it.
func (r Trace) Summarize(from, to time.Time, reads int64) Summary {
	s := Summary{Available: r.Available, Reason: r.Reason, Processes: len(r.PIDs), Samples: len(r.Samples), Reads: reads}
	if !r.Available || len(r.Samples) == 0 {
		return s
	}
	if to.After(from) {
		s.CPU = max(at(r.Samples, to, cpuOf)-at(r.Samples, from, cpuOf), 0)
		if !slices.ContainsFunc(r.Samples, func(x Sample) bool { return x.Stall < 0 }) {
			stall := max(at(r.Samples, to, stallOf)-at(r.Samples, from, stallOf), 0)
			s.CPUPressure, s.PressureKnown = min(float64(stall)/float64(to.Sub(from)), 1), true
		}
	}
	if reads > 0 {
		s.CPUPer1000Reads = time.Duration(float64(s.CPU) * 1000 / float64(reads))
	}
	first, last := r.Samples[0], r.Samples[len(r.Samples)-1]
	s.RSSStart, s.RSSEnd = first.RSS, last.RSS
	for _, x := range r.Samples {
		s.RSSPeak = max(s.RSSPeak, x.RSS)
	}
	s.RSSGrowth = s.RSSEnd - s.RSSStart
	s.RSSSlope = FitSlope(r.Samples)
	return s
}

// WithCold adds the cold start to a summary.
func (s Summary) WithCold(c ColdStart, ok bool) Summary {
	s.ColdStart = ok
	s.SpawnToFirstAnswer, s.Handshake, s.FirstRead = c.SpawnToFirstAnswer, c.Handshake, c.FirstRead
	return s
}

func cpuOf(s Sample) time.Duration   { return s.CPU }
func stallOf(s Sample) time.Duration { return s.Stall }

// at is a sample's figure (cpuOf, stallOf) at t, linear between the
// samples around it and clamped to the first and last: CPU spent before
// the sampler started (the handshake, the server's start-up) is not the
// measured phase's.
func at(ss []Sample, t time.Time, of func(Sample) time.Duration) time.Duration {
	if !t.After(ss[0].At) {
		return of(ss[0])
	}
	for i := 1; i < len(ss); i++ {
		a, b := ss[i-1], ss[i]
		if t.After(b.At) {
			continue
		}
		span := b.At.Sub(a.At)
		if span <= 0 {
			return of(b)
		}
		f := float64(t.Sub(a.At)) / float64(span)
		return of(a) + time.Duration(f*float64(of(b)-of(a)))
	}
	return of(ss[len(ss)-1])
}
