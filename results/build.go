package results

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/servercost"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// Meta is what a run knew besides its phases' figures: the driver fills
// it as the run learns it (driver.Run), in the form the
// result keeps, and Build places it in the result.
type Meta struct {
	ToolName, ToolVersion string
	Started, Ended        time.Time
	Partial               bool   // interrupted (Ctrl-C): the result is still saved, and says so
	Target                Target // the server as the driver found it
	AskedRate             float64
	// Measured is the length of the measured phase (warmup excluded): the
	// base of every rate, so a partial run's rates are still right.
	Measured time.Duration
	// Cost is the server's own cost.
	Cost servercost.Summary
	// Segment is the share of the run (--segment k/n); the zero value is
	// the whole run.
	Segment Segment
	// LateObservable says whether late answers could be seen on the
	// target's transport; LateWatch how long the run watched for them
	// after its last turn.
	LateObservable bool
	LateWatch      time.Duration
	// GeneratorPeakRSS is readbench's own peak resident memory in bytes
	// (0: unknown), GeneratorCPU its CPU time over the measured phase
	// (0: unknown; a measured phase never costs nothing).
	GeneratorPeakRSS int64
	GeneratorCPU     time.Duration
	// CPUPressure is the share of the measured phase some task on the
	// generator's machine waited for a CPU (nil: unknown).
	CPUPressure *float64
	// Digests is what a read of each URI returned (driver: sampled).
	Digests map[string]Digest
	// AuthLost is the line saying the run lost its authorization (Auth.Lost).
	AuthLost string
	// AuthClient is who the run obtained its tokens as (Auth.Client; nil:
	// unknown).
	AuthClient *auth.Client
	// Sessions is how the run's sessions connected and churned.
	Sessions Sessions
	// Strays is what the run's servers sent that it could only skip.
	Strays Strays
	// Connections is what the sessions' HTTP connections did (nil: the
	// target has none); Build derives its share and churn line.
	Connections *Connections
	// Listening is what the run's listeners recorded (nil: the workload
	// has no listen section); Build makes the subscriptions block of it.
	Listening *stats.Listening
}

// Build makes the result document of a run: w is the workload as the run
// resolved it (defaults and flags applied), which the document keeps as it
// saves it (savedWorkload: its secrets redacted), measured is the measured
// phase, warmup the warmup phase (nil when there was none). It fails only
// when the input is missing or a histogram cannot be encoded; a broken
// accounting identity is recorded (Totals.IdentityOK) rather than refused,
// because a run that lost reads must still leave its evidence behind.
func Build(m Meta, w *workload.Workload, measured, warmup *stats.Phase) (*Result, error) {
	if w == nil {
		return nil, errors.New("results: build: no workload")
	}
	rw, err := savedWorkload(w)
	if err != nil {
		return nil, fmt.Errorf("results: build: %w", err)
	}
	return build(m, rw, measured, warmup, []*stats.Phase{warmup, measured})
}

// build makes the document from the workload rw as saved (the advice's
// policy and the warmup's length are read off it) and the recorded
// phases; the timeline is the seconds of phases (a run's warmup and
// measured phases, or the shards of a merge placed on one clock).
func build(m Meta, rw workload.Workload, measured, warmup *stats.Phase, phases []*stats.Phase) (*Result, error) {
	if measured == nil {
		return nil, errors.New("results: build: no measured run")
	}
	r := &Result{
		Schema:     Schema,
		Tool:       Tool{Name: m.ToolName, Version: m.ToolVersion},
		Started:    NewTimestamp(m.Started),
		Ended:      NewTimestamp(m.Ended),
		Partial:    m.Partial,
		Workload:   rw,
		Target:     m.Target,
		Host:       thisHost(m.CPUPressure),
		Totals:     totals(m, measured),
		Classes:    make([]Class, 0, len(measured.Classes)),
		Shape:      measured.Shape,
		Digests:    digestsOf(m.Digests),
		Thresholds: []Verdict{},
		Timeline:   []Second{},
		Advice:     Advice{Deadlines: []Candidate{}, Timeouts: []Candidate{}, Reasoning: []string{}},
		Segment:    Segment{K: max(m.Segment.K, 1), N: max(m.Segment.N, 1), Barrier: m.Segment.Barrier},
		Shards:     []Shard{},
		Sessions:   m.Sessions,
		Strays:     m.Strays,
	}
	if r.Sessions.Errors == nil {
		r.Sessions.Errors = []SessionError{}
	}
	if m.Connections != nil {
		r.Connections = m.Connections.withChurn()
	}
	r.Target.Address = targets.RedactSecrets(r.Target.Address)
	var err error
	blocks := []struct {
		dst *stats.Latency
		h   *stats.Histogram
	}{
		{&r.Read, measured.Read}, {&r.ReadOK, measured.ReadOK}, {&r.Lag, measured.Lag},
		{&r.Service, measured.Service}, {&r.ServiceOK, measured.ServiceOK}, {&r.TTFB, measured.TTFB}, {&r.Chunk, measured.Chunk},
		{&r.Turn, measured.Turn}, {&r.Cancellation.CancelToLateMs, measured.Cancel.CancelToLate}, {&r.Cancellation.AllowancesMs, measured.Cancel.Allowances},
		{&r.Handshake, measured.Handshake}, {&r.FirstRead, measured.FirstRead},
	}
	for _, b := range blocks {
		if *b.dst, err = LatencyOf(b.h); err != nil {
			return nil, err
		}
	}
	r.Read.LowerBounds, r.Turn.LowerBounds = measured.ReadLowerBounds, measured.TurnLowerBounds
	r.Target.WireCounts = WireCountsOf(r.Target.Transport)
	r.Generator = generatorOf(m.GeneratorPeakRSS, m.GeneratorCPU, measured.Service.Count())
	r.LagBoundMs = stats.Millis(LagBound(measured.ReadOK))
	if r.TurnSizes, err = turnSizes(measured.TurnBySize); err != nil {
		return nil, err
	}
	r.ServerCost = ServerCostOf(m.Cost, r.Service.P50Ms)
	r.Cancellation.Cancelled = measured.Cancel.Cancelled
	r.Cancellation.Observable = m.LateObservable
	if m.LateObservable {
		late, wasted := measured.Cancel.LateAnswers, measured.Cancel.WastedBytes
		r.Cancellation.LateAnswers, r.Cancellation.WastedBytes = &late, &wasted
		r.Cancellation.LateWatchMs = stats.Millis(m.LateWatch)
		ignored, ignoredBytes := measured.Cancel.Ignored, measured.Cancel.IgnoredBytes
		r.Cancellation.Ignored, r.Cancellation.IgnoredBytes = &ignored, &ignoredBytes
		if late > 0 {
			allowance := stats.Millis(measured.Cancel.Allowance)
			r.Cancellation.AllowanceMs = &allowance
		}
	}
	for _, c := range measured.Classes {
		if c == nil {
			continue
		}
		cl, err := class(c)
		if err != nil {
			return nil, err
		}
		r.Classes = append(r.Classes, cl)
	}
	if r.Warmup, err = warmupOf(warmup); err != nil {
		return nil, err
	}
	if r.Timeline, err = timeline(rw.Load.Warmup, phases...); err != nil {
		return nil, err
	}
	if r.Auth, err = authOf(measured, m.AuthLost, m.AuthClient); err != nil {
		return nil, err
	}
	if r.Subscriptions, err = subscriptionsOf(m.Listening); err != nil {
		return nil, err
	}
	g := setGenerator(r) // reads the totals, the blocks and the timeline above
	setExpectUnmet(r)
	r.Health = HealthOf(r) // reads the totals, the classes, the subscriptions and the generator's finding
	r.Advice = advice(policyOf(rw), measured, g, rw.Load.MaxInFlight, r.Health, contentionOf(r.Host.CPUPressure, g, r.Read.P99Ms))
	return r, nil
}

// timeline merges the phases' seconds into the result's timeline: one
// entry per second from the run's start, warmup included and marked.
func timeline(warm time.Duration, phases ...*stats.Phase) ([]Second, error) {
	secs, err := stats.MergeTimelines(warm, phases...)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	out := make([]Second, 0, len(secs))
	for _, s := range secs {
		out = append(out, Second{
			T: s.Second, Warmup: s.Warmup, Asked: float64(s.Asked), Achieved: float64(s.Achieved),
			Reads: s.Reads, Errors: s.Errors, InFlight: s.InFlight, P50Ms: stats.Millis(s.P50), P99Ms: stats.Millis(s.P99),
			LagMaxMs: stats.Millis(s.LagMax), HDR: s.LatencyHDR,
		})
	}
	return out, nil
}

// totals computes the counters and rates of the measured phase.
func totals(m Meta, run *stats.Phase) Totals {
	secs := m.Measured.Seconds()
	perS := func(n float64) *float64 { return quotient(n, secs, nil) } // null over no measured time
	sent := run.Outcomes.Total() - run.Outcomes[stats.Dropped]         // dropped reads were never sent
	started := run.Turns - run.TurnEndCount(stats.TurnDropped)         // dropped turns never started: not achieved
	errs := run.Outcomes.Errors()
	return Totals{
		Scheduled: run.Scheduled,
		Outcomes:  run.Outcomes.Map(),
		ReadsPerS: perS(float64(sent)),
		TurnsPerS: perS(float64(started)),
		WireBytes: run.WireBytes,
		ErrorWire: run.WireBytes - run.OK.WireBytes,
		DiskBytes: run.OK.DiskBytes,
		Turns:     run.Turns,
		TurnEnds: TurnEnds{
			Complete: run.TurnEndCount(stats.TurnComplete),
			Cut:      run.TurnEndCount(stats.TurnCut),
			Failed:   run.TurnEndCount(stats.TurnFailed),
			Dropped:  run.TurnEndCount(stats.TurnDropped),
		},
		Errors:       errs,
		ErrorRate:    quotient(float64(errs), float64(run.Scheduled), nil),
		AskedRate:    finite(m.AskedRate),
		AchievedRate: perS(float64(started)),
		Base64Bytes:  run.OK.Base64Bytes,
		Inflation:    quotient(float64(run.OK.WireBytes), float64(run.OK.DiskBytes), nil),
		WireMBPerS:   perS(float64(run.WireBytes) / 1e6),
		DiskMBPerS:   perS(float64(run.OK.DiskBytes) / 1e6),
		IdentityOK:   identity(run.Scheduled, run.Outcomes.Map()) == nil,
		MeasuredS:    max(secs, 0),

		MisusedMethodNotFound: run.MisusedMethodNotFound,
	}
}

// finite replaces NaN and infinities, which JSON cannot carry, by 0.
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// LatencyOf makes the latency block of h; a nil histogram gives the block of
// an empty one, so that no block is ever null.
func LatencyOf(h *stats.Histogram) (stats.Latency, error) {
	if h == nil {
		h = stats.NewHistogram()
	}
	l, err := h.Export()
	if err != nil {
		return stats.Latency{}, fmt.Errorf("results: %w", err)
	}
	return l, nil
}

func class(c *stats.ClassStats) (Class, error) {
	l, err := LatencyOf(c.Latency)
	if err != nil {
		return Class{}, err
	}
	l.LowerBounds = c.LatencyLowerBounds
	chunk, err := LatencyOf(c.Chunk)
	if err != nil {
		return Class{}, err
	}
	usable, err := LatencyOf(c.FirstUsable)
	if err != nil {
		return Class{}, err
	}
	ok := c.OK // inflation is the documents' (ok answers'), never the error answers' envelopes
	enc, env := inflationSplit(ok.WireBytes, ok.DiskBytes, ok.Base64Bytes)
	return Class{
		Chunk: chunk, FirstUsable: usable, SlowReads: slowReadsOf(c.Slow),
		Class:         c.Name,
		MIME:          c.MIME,
		Reads:         c.Outcomes.Total(),
		Errors:        c.Outcomes.Errors(),
		Outcomes:      c.Outcomes.Map(),
		Latency:       l,
		WireBytes:     c.WireBytes,
		ErrorWire:     c.WireBytes - ok.WireBytes,
		DiskBytes:     ok.DiskBytes,
		Base64Bytes:   ok.Base64Bytes,
		Inflation:     quotient(float64(ok.WireBytes), float64(ok.DiskBytes), nil),
		EncodingBytes: enc, EnvelopeBytes: env, Base64Padding: ok.Base64Padding,
		Cache: Cache{
			Hinted: c.Cache.Hinted, MinTTLMs: stats.Millis(c.Cache.MinTTL), MaxTTLMs: stats.Millis(c.Cache.MaxTTL),
			Public: c.Cache.Public, Private: c.Cache.Private,
			WouldNotSend: c.Cache.WouldNotSend, WouldNotSendShare: quotient(float64(c.Cache.WouldNotSend), float64(c.Outcomes.Total()-c.Outcomes[stats.Dropped]), nil),
		},
	}, nil
}

// warmupOf summarises the warmup phase; no warmup gives zero counts.
func warmupOf(run *stats.Phase) (Warmup, error) {
	if run == nil {
		run = stats.NewRun(nil)
	}
	read, err := LatencyOf(run.Read)
	if err != nil {
		return Warmup{}, err
	}
	read.LowerBounds = run.ReadLowerBounds
	return Warmup{Scheduled: run.Scheduled, Turns: run.Turns, Outcomes: run.Outcomes.Map(), Read: read}, nil
}

// thisHost describes the machine running the generator. A hostname that
// cannot be read is left empty: it is information, not a requirement.
func thisHost(pressure *float64) Host {
	name, _ := os.Hostname()
	return Host{
		Hostname: name, CPUPressure: pressure,
		OS:        runtime.GOOS,
		Arch:      runtime.GOARCH,
		CPUs:      runtime.NumCPU(),
		GoVersion: runtime.Version(),
	}
}

// turnSizes lists turn latency by number of attachments, smallest first.
func turnSizes(by map[int]*stats.Histogram) ([]TurnSize, error) {
	out := []TurnSize{}
	for _, n := range slices.Sorted(maps.Keys(by)) {
		l, err := LatencyOf(by[n])
		if err != nil {
			return nil, err
		}
		out = append(out, TurnSize{Attachments: n, Latency: l})
	}
	return out, nil
}

// inflationSplit splits wire bytes above disk into what base64 adds and
// the envelope: base64 turns 3 bytes into 4, so it adds a quarter of its
// characters (exact up to the padding of each blob).
func inflationSplit(wire, disk, b64 int64) (encoding, envelope int64) {
	encoding = b64 / 4
	return encoding, max(wire-disk-encoding, 0)
}

// LagBound is the scheduling lag past which the generator, not the server,
// limited a run: 1 ms, or a tenth of the ok reads' median when that is
// larger. A lag of a tenth of the latency being measured already shifts
// what each read met (a turn that starts late meets another server), and
// below 1 ms a timer's own lateness on a virtual machine dominates.
func LagBound(ok *stats.Histogram) time.Duration {
	bound := time.Millisecond
	if ok != nil && ok.Count() > 0 {
		bound = max(bound, ok.Quantile(50)/10)
	}
	return bound
}

// WireCountsOf says what wire bytes hold on a transport: on stdio every
// message and its newline; on HTTP+SSE the event as it came on the
// stream; on Streamable HTTP the response body as received (JSON, or the
// SSE events with their framing), without the status line and headers,
// which Go's HTTP client does not expose (and HTTP/2 compresses and
// shares).
func WireCountsOf(transport string) string {
	switch transport {
	case "http":
		return "response body (JSON or SSE framing); HTTP status line and headers not counted"
	case "sse":
		return "SSE events on the stream, framing included"
	case "files":
		return "response body (the raw document bytes); HTTP status line and headers not counted"
	}
	return "JSON-RPC messages and their newline"
}

// digestsOf copies the digests for the result, an empty map for none.
func digestsOf(m map[string]Digest) map[string]Digest {
	out := make(map[string]Digest, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
