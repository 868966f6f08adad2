package driver

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The server's own cost (DESIGN §6): a latency figure means little without
// what the server spent to reach it. For a stdio target readbench owns the
// processes; for a server started elsewhere on the same machine the user
// names it (--server-pid). Both are read from /proc, so this is Linux-only;
// elsewhere the report says "not available" instead of failing the run.

// CostEvery is how often the server's processes are sampled: often enough
// for a peak and a slope over a short run, rare enough (two small /proc
// reads per process) to cost the generator nothing measurable.
const CostEvery = 250 * time.Millisecond

// maxCostSamples bounds a long run's memory: past it every other sample is
// dropped and the interval doubled, which keeps the start, the end, the
// shape of the curve and so the slope.
const maxCostSamples = 1 << 15

// CostSample is the server's processes at one instant, summed over them.
type CostSample struct {
	At  time.Time
	CPU time.Duration // user + system CPU time since each process started
	RSS int64         // resident memory, bytes
}

// CostReport is what a sampler saw: plain data, summarised by Summarize.
type CostReport struct {
	Available bool
	Reason    string // why not, when not Available
	PIDs      []int
	Samples   []CostSample
	Errors    int // samples of a process that could not be read (it may have exited)
}

// CostSampler samples the CPU time and resident memory of a set of
// processes from a goroutine it owns, until Stop.
type CostSampler struct {
	pids  []int
	every time.Duration
	tick  int64 // clock ticks per second, for /proc/PID/stat's times
	last  []CostSample
	rep   CostReport

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// StartCostSampler takes a first sample at once (so the start is the state
// after the handshake, not whatever the sampler's first tick finds) and
// then one every every, until Stop or ctx ends. No pids, or a system
// without /proc, gives a sampler whose report says why it has nothing.
func StartCostSampler(ctx context.Context, pids []int, every time.Duration) *CostSampler {
	c := &CostSampler{
		pids: pids, every: max(every, 10*time.Millisecond),
		last: make([]CostSample, len(pids)),
		rep:  CostReport{PIDs: pids},
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

func (c *CostSampler) loop(ctx context.Context) {
	defer close(c.done)
	tk := time.NewTicker(c.every)
	defer tk.Stop()
	for {
		select {
		case <-tk.C:
			_ = c.sample(false)
			if len(c.rep.Samples) > maxCostSamples {
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
func (c *CostSampler) Stop() CostReport {
	c.once.Do(func() { close(c.stop) })
	<-c.done
	return c.rep
}

// sample reads every process once and appends their sum. A process that
// cannot be read keeps its last values (its CPU time is final once it has
// exited); on the first sample, strict, that is an error instead: the pid
// is wrong or not ours to read.
func (c *CostSampler) sample(strict bool) error {
	now := time.Now()
	var sum CostSample
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
	sum.At = now
	c.rep.Samples = append(c.rep.Samples, sum)
	return nil
}

// thin drops every other sample, keeping the first and the last.
func (c *CostSampler) thin() {
	s := c.rep.Samples
	kept := s[:0]
	for i := range s {
		if i%2 == 0 || i == len(s)-1 {
			kept = append(kept, s[i])
		}
	}
	c.rep.Samples = kept
}

// CostSummary is the server's cost over a run, in plain units. Its fields
// are flat and plain so the results package, which does not import the
// driver, can take it by conversion (results.CostFigures).
type CostSummary struct {
	Available bool
	Reason    string
	Processes int
	Samples   int
	// CPU is the CPU time spent in the measured phase, interpolated
	// between the samples around its bounds.
	CPU             time.Duration
	Reads           int64         // reads answered in the measured phase
	CPUPer1000Reads time.Duration // 0 without reads
	// RSS over the whole sampling (handshake to the end of the run).
	RSSStart, RSSPeak, RSSEnd int64
	RSSGrowth                 int64   // end - start, bytes
	RSSSlopeMiBPerMin         float64 // least squares over the samples: a leak shows as a steady positive slope
	// Cold start (stdio targets), see ColdStart.
	ColdStart          bool
	SpawnToFirstAnswer time.Duration
	Handshake          time.Duration
	FirstRead          time.Duration
}

// Summarize computes the figures for the measured phase [from, to] and
// reads answered in it.
func (r CostReport) Summarize(from, to time.Time, reads int64) CostSummary {
	s := CostSummary{Available: r.Available, Reason: r.Reason, Processes: len(r.PIDs), Samples: len(r.Samples), Reads: reads}
	if !r.Available || len(r.Samples) == 0 {
		return s
	}
	if to.After(from) {
		s.CPU = max(cpuAt(r.Samples, to)-cpuAt(r.Samples, from), 0)
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
	s.RSSSlopeMiBPerMin = rssSlope(r.Samples)
	return s
}

// WithCold adds the cold start to a summary.
func (s CostSummary) WithCold(c ColdStart, ok bool) CostSummary {
	s.ColdStart = ok
	s.SpawnToFirstAnswer, s.Handshake, s.FirstRead = c.SpawnToFirstAnswer, c.Handshake, c.FirstRead
	return s
}

// cpuAt is the CPU time at t, linear between the samples around it and
// clamped to the first and last: CPU spent before the sampler started (the
// handshake, the server's start-up) is not the measured phase's.
func cpuAt(ss []CostSample, t time.Time) time.Duration {
	if !t.After(ss[0].At) {
		return ss[0].CPU
	}
	for i := 1; i < len(ss); i++ {
		a, b := ss[i-1], ss[i]
		if t.After(b.At) {
			continue
		}
		span := b.At.Sub(a.At)
		if span <= 0 {
			return b.CPU
		}
		f := float64(t.Sub(a.At)) / float64(span)
		return a.CPU + time.Duration(f*float64(b.CPU-a.CPU))
	}
	return ss[len(ss)-1].CPU
}

// rssSlope is the least-squares slope of RSS over time, MiB per minute;
// 0 with fewer than two distinct instants.
func rssSlope(ss []CostSample) float64 {
	if len(ss) < 2 {
		return 0
	}
	t0 := ss[0].At
	var n, sx, sy, sxx, sxy float64
	for _, x := range ss {
		m := x.At.Sub(t0).Minutes()
		y := float64(x.RSS) / (1 << 20)
		n++
		sx += m
		sy += y
		sxx += m * m
		sxy += m * y
	}
	den := n*sxx - sx*sx
	if den <= 1e-18 {
		return 0
	}
	return (n*sxy - sx*sy) / den
}

// ColdStart is how a stdio server starts: spawn to its first message of
// any kind, the handshake (both the slowest over the sessions: they start
// together and the run waits for all), and the first read, actual send to
// last byte, to be set against the steady-state median service time.
type ColdStart struct {
	SpawnToFirstAnswer, Handshake, FirstRead time.Duration
}

// ColdStartRecorder collects a run's cold start. Its methods are safe for
// concurrent use and do nothing on a nil recorder, so the hooks can be
// called unconditionally.
//
// The first read is the first read *sent* that got an answer, not the
// first to finish: with reads going out together the quickest answer
// would hide a slow cold one. Reads sent after the best so far skip the
// lock, so the hook costs an atomic load per read after the first burst.
type ColdStartRecorder struct {
	epoch    time.Time
	bestSent atomic.Int64 // ns after epoch of the earliest answered read's send; 0: none

	mu       sync.Mutex
	cs       ColdStart
	sessions int
}

// NewColdStartRecorder starts the clock reads are placed against.
func NewColdStartRecorder() *ColdStartRecorder {
	return &ColdStartRecorder{epoch: time.Now()}
}

// Session records one session's start once its handshake has succeeded:
// only a stdio transport knows its spawn, so other transports are ignored.
func (c *ColdStartRecorder) Session(t transport, handshake time.Duration) {
	st, ok := t.(*stdioTransport)
	if c == nil || !ok {
		return
	}
	first := time.Duration(st.firstLine.Load())
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions++
	c.cs.SpawnToFirstAnswer = max(c.cs.SpawnToFirstAnswer, first)
	c.cs.Handshake = max(c.cs.Handshake, handshake)
}

// Read is the hook for every answered resources/read: sent and done are
// the answer's actual send and last byte.
func (c *ColdStartRecorder) Read(sent, done time.Time) {
	if c == nil {
		return
	}
	at := max(int64(sent.Sub(c.epoch)), 1)
	if b := c.bestSent.Load(); b != 0 && at >= b {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.bestSent.Load(); b == 0 || at < b {
		c.bestSent.Store(at)
		c.cs.FirstRead = done.Sub(sent)
	}
}

// Result returns the cold start, and whether any stdio session was seen.
func (c *ColdStartRecorder) Result() (ColdStart, bool) {
	if c == nil {
		return ColdStart{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cs, c.sessions > 0
}

// costPIDs are the processes whose cost a run samples: those behind its
// stdio sessions, and serverPID (--server-pid, 0: none) for a server
// started elsewhere on this machine.
func costPIDs(sessions []*session, serverPID int) []int {
	var pids []int
	for _, s := range sessions {
		if st, ok := s.t.(*stdioTransport); ok {
			pids = append(pids, st.pid())
		}
	}
	if serverPID > 0 {
		pids = append(pids, serverPID)
	}
	return pids
}
