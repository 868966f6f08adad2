package metrics

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/readbench/readbench/stats"
)

// DefaultBuckets are the classic buckets, in seconds, of the latency
// histograms (read, service, turn): 500 µs to a minute, about three to a
// decade, so that a p99 from histogram_quantile lands within a bucket of
// the result's HDR p99 for latencies from a loopback server's to a slow
// remote one's.
var DefaultBuckets = []float64{
	0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 60,
}

// lagBuckets are the scheduling-lag histogram's: lag is the generator's
// own delay, tens of microseconds when it keeps up.
var lagBuckets = []float64{
	0.00001, 0.00002, 0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1,
}

// ParseBuckets reads --metrics-buckets: durations separated by commas
// ("1ms,5ms,20ms,100ms,1s"), increasing, as the histograms' upper bounds
// in seconds.
func ParseBuckets(s string) ([]float64, error) {
	var b []float64
	for _, f := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--metrics-buckets %q: %w", s, err)
		}
		sec := d.Seconds()
		if sec <= 0 || (len(b) > 0 && sec <= b[len(b)-1]) {
			return nil, fmt.Errorf("--metrics-buckets %q: want positive durations in increasing order", s)
		}
		b = append(b, sec)
	}
	return b, nil
}

// Options shape the histograms.
type Options struct {
	Buckets []float64 // the latency histograms' classic buckets, seconds (nil: DefaultBuckets)
	// Native adds native (sparse, exponential) histograms beside the
	// classic buckets: a receiver that accepts them gets both.
	Native bool
}

// Registry holds the series of the runs under way: one at a time, or
// ab's two sides of a round at once (a run per RunLabels.Side). It is
// safe for concurrent use: the runs' goroutines observe, the pusher and
// the scrape endpoint gather.
type Registry struct {
	opts Options
	mu   sync.Mutex
	regs map[string]*prometheus.Registry // by side; empty until Start
	live map[string]*liveGauges
}

// New returns an empty Registry: it gathers nothing until Start.
func New(o Options) *Registry {
	if len(o.Buckets) == 0 {
		o.Buckets = DefaultBuckets
	}
	return &Registry{opts: o}
}

// liveGauges are set from the run's progress, about once a second; f
// registers more of the run's series later (its subscriptions, at its
// end).
type liveGauges struct {
	inFlight, asked prometheus.Gauge
	f               factory
	// subs are the run's listeners' series (subscriptions.go), made at
	// the first progress or end that has listeners; guarded by the
	// Registry's mutex.
	subs *subscriptionsCollector
}

// Start registers a run's series, labelled with run, and returns the
// observers of its two phases (for driver.Options.Observe). A second
// Start of the same side (the next step of a capacity search, ab's next
// round) replaces the first's series: its counters start again from zero,
// which rate() reads as a reset. The other side's series stay.
func (r *Registry) Start(run RunLabels, classes []stats.ClassInfo, askedRate float64) (warmup, measured stats.Observer) {
	reg := prometheus.NewRegistry()
	f := factory{reg: prometheus.WrapRegistererWith(run.labels(), reg), opts: r.opts}
	s := f.series()
	live := &liveGauges{
		inFlight: f.gauge("readbench_turns_in_flight", "Turns started and not yet ended."),
		asked:    f.gauge("readbench_asked_rate", "Turns per second the schedule asks for over the measured phase (0: the closed model)."),
	}
	live.asked.Set(askedRate)
	live.f = f
	r.mu.Lock()
	if r.regs == nil {
		r.regs, r.live = map[string]*prometheus.Registry{}, map[string]*liveGauges{}
	}
	r.regs[run.Side], r.live[run.Side] = reg, live
	r.mu.Unlock()
	return s.phase(PhaseWarmup, classes), s.phase(PhaseMeasured, classes)
}

// Observer is the driver's Options.Observe for one run: once the run is
// ready, its series are registered (Start) with part's labels, the ones
// the command knows (the run id, and a capacity step's Step or an ab
// run's Side and Round), and the rest from what the run tells
// (stats.Ready: its workload, target, server and shard), and the observers
// of its two phases returned. It exists so that the command hands the
// driver live metrics as a value, naming no stats type, and so that this
// package, which never imports the driver, says itself how a run's labels
// are made.
func (r *Registry) Observer(part RunLabels) func(stats.Ready) (warmup, measured stats.Observer) {
	return func(rd stats.Ready) (warmup, measured stats.Observer) {
		run := part
		run.Workload, run.Target = rd.Workload, rd.Target
		run.ServerName, run.ServerVersion, run.Shard = rd.ServerName, rd.ServerVersion, rd.Shard
		return r.Start(run, rd.Classes, rd.AskedRate)
	}
}

// Progress is a run's progress callback that sets side's in-flight
// gauge and its listeners' series (stats.Progress.Listening, when it has
// listeners) from each stats.Progress, then hands it to next (nil: none),
// so that the series follow the run the way the progress line does.
func (r *Registry) Progress(side string, next func(stats.Progress)) func(stats.Progress) {
	return func(p stats.Progress) {
		r.SetInFlight(side, p.InFlight)
		r.publishListening(side, p.Listening, false)
		if next != nil {
			next(p)
		}
	}
}

// SetInFlight sets the in-flight gauge of side's run (from
// stats.Progress; side "" outside ab).
func (r *Registry) SetInFlight(side string, n int64) {
	r.mu.Lock()
	live := r.live[side]
	r.mu.Unlock()
	if live != nil {
		live.inFlight.Set(float64(n))
	}
}

// Idle sets every run's in-flight gauge to 0: the command's runs are over.
func (r *Registry) Idle() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, live := range r.live {
		live.inFlight.Set(0)
	}
}

// Gather returns the current runs' series (none before Start): a
// prometheus.Gatherer for the pusher and the scrape endpoint.
func (r *Registry) Gather() ([]*dto.MetricFamily, error) {
	r.mu.Lock()
	gs := make(prometheus.Gatherers, 0, len(r.regs))
	for _, side := range slices.Sorted(maps.Keys(r.regs)) {
		gs = append(gs, r.regs[side])
	}
	r.mu.Unlock()
	if len(gs) == 0 {
		return nil, nil
	}
	return gs.Gather()
}

// factory makes and registers one run's collectors.
type factory struct {
	reg  prometheus.Registerer
	opts Options
}

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	f.reg.MustRegister(g)
	return g
}

func (f factory) counters(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) histograms(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	o := prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}
	if f.opts.Native {
		o.NativeHistogramBucketFactor = 1.1
		o.NativeHistogramMaxBucketNumber = 160
		o.NativeHistogramMinResetDuration = time.Hour
	}
	h := prometheus.NewHistogramVec(o, labels)
	f.reg.MustRegister(h)
	return h
}

// series are one run's vectors, both phases in each.
type series struct {
	reads, turns, wire, disk, base64 *prometheus.CounterVec
	read, service, turn, lag         *prometheus.HistogramVec
	buckets                          []float64 // read's and service's
}

func (f factory) series() *series {
	return &series{
		reads:   f.counters("readbench_reads_total", "Reads finished, by class and outcome (dropped ones included).", "phase", "class", "outcome"),
		turns:   f.counters("readbench_turns_total", "Turns finished or dropped, by how they ended.", "phase", "end"),
		wire:    f.counters("readbench_wire_bytes_total", "Bytes of the answers as they crossed the wire.", "phase", "class"),
		disk:    f.counters("readbench_disk_bytes_total", "Bytes of the documents the answers carried, decoded.", "phase", "class"),
		base64:  f.counters("readbench_base64_bytes_total", "Bytes of base64 text in the answers.", "phase", "class"),
		read:    f.histograms("readbench_read_latency_seconds", "Read latency from the intended start to the last byte (cut reads at the cut).", f.opts.Buckets, "phase", "class"),
		service: f.histograms("readbench_read_service_seconds", "Answered reads, actual send to the last byte.", f.opts.Buckets, "phase", "class"),
		turn:    f.histograms("readbench_turn_latency_seconds", "Turn latency from the intended start (cut and dropped turns at their limit).", f.opts.Buckets, "phase"),
		lag:     f.histograms("readbench_schedule_lag_seconds", "Scheduling lag of every read sent: intended start to the hand-over to the transport.", lagBuckets, "phase"),
		buckets: f.opts.Buckets,
	}
}

// phaseObserver feeds one phase's series: every child is looked up once,
// here, so that observing a sample is a few atomic adds.
type phaseObserver struct {
	reads              [][stats.NumOutcomes]prometheus.Counter
	read, service      []*traced // the latency histograms, which carry the read's trace id
	exemplars          *exemplars
	wire, disk, base64 []prometheus.Counter
	turns              [stats.TurnDropped + 1]prometheus.Counter
	turn, lag          prometheus.Observer
}

func (s *series) phase(phase string, classes []stats.ClassInfo) *phaseObserver {
	o := &phaseObserver{
		reads:     make([][stats.NumOutcomes]prometheus.Counter, len(classes)),
		exemplars: &exemplars{epoch: time.Now()},
		turn:      s.turn.WithLabelValues(phase), lag: s.lag.WithLabelValues(phase),
	}
	for i, c := range classes {
		for k := range stats.NumOutcomes {
			o.reads[i][k] = s.reads.WithLabelValues(phase, c.Name, k.String())
		}
		o.read = append(o.read, newTraced(s.read.WithLabelValues(phase, c.Name), s.buckets))
		o.service = append(o.service, newTraced(s.service.WithLabelValues(phase, c.Name), s.buckets))
		o.wire = append(o.wire, s.wire.WithLabelValues(phase, c.Name))
		o.disk = append(o.disk, s.disk.WithLabelValues(phase, c.Name))
		o.base64 = append(o.base64, s.base64.WithLabelValues(phase, c.Name))
	}
	for e := range o.turns {
		o.turns[e] = s.turns.WithLabelValues(phase, stats.TurnEnd(e).String())
	}
	return o
}

// ObserveRead counts one read as stats.Recorder.Read does: its outcome,
// its latency when it was sent (answered or cut), its service time when
// answered, its lag when sent, its bytes. A read that carried trace
// context gives its latency and service buckets its trace id as an
// exemplar (exemplar.go): from a bucket of the histogram to the trace of
// a read in it. The lag does not carry it: it is the generator's delay,
// which the server's trace never shows.
func (o *phaseObserver) ObserveRead(s stats.ReadSample) {
	if s.Class < 0 || s.Class >= len(o.reads) || s.Outcome < 0 || s.Outcome >= stats.NumOutcomes {
		return
	}
	o.reads[s.Class][s.Outcome].Inc()
	x := o.exemplars.of(&s)
	if s.Answered || s.LowerBound {
		o.read[s.Class].observe(s.Latency.Seconds(), &x)
	}
	if s.Answered {
		o.service[s.Class].observe(s.Service.Seconds(), &x)
	}
	x.release()
	if s.Lagged() {
		o.lag.Observe(s.Lag.Seconds())
	}
	if s.WireBytes > 0 {
		o.wire[s.Class].Add(float64(s.WireBytes))
	}
	if s.DiskBytes > 0 {
		o.disk[s.Class].Add(float64(s.DiskBytes))
	}
	if s.Base64Bytes > 0 {
		o.base64[s.Class].Add(float64(s.Base64Bytes))
	}
}

// ObserveTurn counts one turn by its end, and its latency.
func (o *phaseObserver) ObserveTurn(t stats.TurnSample) {
	if t.End < 0 || int(t.End) >= len(o.turns) {
		return
	}
	o.turns[t.End].Inc()
	o.turn.Observe(t.Latency.Seconds())
}
