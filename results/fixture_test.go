package results

import (
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// Secrets the fixture's target and header carry; no saved byte may
// contain them.
const secretPassword, secretHeader = "hunter2", "Bearer h3ader-s3cret"

// fixtureStart is the fixture's start time, with sub-millisecond digits
// that the result must drop.
func fixtureStart() time.Time { return time.Date(2026, 11, 30, 2, 28, 47, 123456789, time.UTC) }

// fixtureWorkload is a workload as a run resolved it (defaults applied),
// its secrets still in it: Build saves it without them.
func fixtureWorkload(t testing.TB) *workload.Workload {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	rate, err := units.ParseRate("50/s")
	must(err)
	size, err := units.ParseSizeDist("lognormal(8KiB,200KiB)")
	must(err)
	delay, err := units.ParseDurationDist("lognormal(12ms,40ms)")
	must(err)
	png, err := units.ParseSizeDist("1834208")
	must(err)
	var thresholds []workload.Threshold
	for _, mb := range [][2]string{{"errors", "<1%"}, {"turn.p99", "<800ms"}} {
		p, err := bounds.ParseThresholdPair(mb[0], mb[1])
		must(err)
		thresholds = append(thresholds, workload.Threshold{Metric: mb[0], Bound: mb[1], Parsed: p})
	}
	return &workload.Workload{
		Name:     "docs-attachments",
		Source:   "<builtin>/docs-attachments.yaml",
		Target:   targets.Target{Kind: targets.HTTP, Address: "https://bench:" + secretPassword + "@staging.example.com/mcp"},
		Protocol: "auto",
		Sessions: 2,
		Seed:     42,
		Load: workload.Load{
			Model: workload.ModelOpen, Rate: rate, Arrival: workload.ArrivalConstant,
			Warmup: 2 * time.Second, Duration: 10 * time.Second, MaxInFlight: 1000,
			Stages: []workload.Stage{{Rate: rate, For: 10 * time.Second, Ramp: true}},
		},
		Turn: workload.Turn{
			Attachments: workload.Attachments{Fixed: 4},
			ReadTimeout: 5 * time.Second, Deadline: 800 * time.Millisecond,
		},
		Mix: []workload.Class{
			{Name: "markdown", Weight: 70, MIME: "text/markdown", Size: &size, Delay: &delay},
			{Name: "screenshot", Weight: 25, MIME: "image/png", Size: &png},
			{Name: "renamed-policy", Weight: 5, URI: "docs://team/platform/policy/on-call-escalation", Expect: "not_found"},
		},
		Thresholds: thresholds,
		AllowHosts: []string{"staging.example.com"},
		Headers:    map[string]string{"Authorization": secretHeader},
	}
}

// The fixture's reads: 300 markdown reads at exactly 20 ms (5 more
// dropped), 100 screenshots at 100 ms (5 more timed out) and 10 expected
// not-found answers at 5 ms: 420 scheduled, 410 answered, 10 errors.
const (
	mdWire, mdDisk           = 1400, 1000
	pngWire, pngDisk, pngB64 = 2445700, 1834208, 2445612
)

// fixtureRun records the measured phase. troubled adds what a bad run
// shows: cancellations with late answers, shape findings and a lost read.
func fixtureRun(troubled bool) *stats.Phase {
	rec := stats.NewRecorder([]stats.ClassInfo{
		{Name: "markdown", MIME: "text/markdown"}, {Name: "screenshot", MIME: "image/png"},
		{Name: "renamed-policy", MIME: ""},
	})
	rec.Schedule(420)
	read := func(n, class int, o stats.Outcome, answered bool, lat time.Duration, wire, disk, b64 int64) {
		for range n {
			rec.Read(stats.ReadSample{
				Class: class, Outcome: o, Answered: answered, Latency: lat, Service: lat / 2, TTFB: lat / 4,
				ByteCounts: stats.ByteCounts{WireBytes: wire, DiskBytes: disk, Base64Bytes: b64},
			})
		}
	}
	read(300, 0, stats.OK, true, 20*time.Millisecond, mdWire, mdDisk, 0)
	read(5, 0, stats.Dropped, false, 0, 0, 0, 0)
	read(100, 1, stats.OK, true, 100*time.Millisecond, pngWire, pngDisk, pngB64)
	read(5, 1, stats.Timeout, false, 0, 0, 0, 0)
	read(10, 2, stats.ExpectedError, true, 5*time.Millisecond, 180, 0, 0)
	for i := range 105 {
		switch {
		case i < 100:
			rec.Turn(stats.TurnSample{Latency: 100 * time.Millisecond, End: stats.TurnComplete})
		case i < 103:
			rec.Turn(stats.TurnSample{Latency: 800 * time.Millisecond, End: stats.TurnCut})
		default:
			rec.Turn(stats.TurnSample{Latency: 5 * time.Second, End: stats.TurnFailed})
		}
	}
	if troubled {
		rec.Schedule(8)
		read(7, 1, stats.Cancelled, false, 0, 4096, 3072, 4096) // one of the 8 is never counted; the start of each answer arrived
		rec.LateAnswer(pngWire, 30*time.Millisecond)
		rec.Late(stats.LateSample{WireBytes: pngWire, AfterCancel: 250 * time.Millisecond, Ignored: true, Allowance: 25 * time.Millisecond})
		rec.Shape(stats.Shape{MIMEMismatch: 3, URIRewritten: 1})
	}
	return rec.Phase()
}

// fixtureWarmup records a short warmup: 40 reads at 50 ms.
func fixtureWarmup() *stats.Phase {
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}})
	rec.Schedule(40)
	for range 40 {
		rec.Read(stats.ReadSample{Outcome: stats.OK, Answered: true, Latency: 50 * time.Millisecond})
	}
	for range 10 {
		rec.Turn(stats.TurnSample{Latency: 60 * time.Millisecond})
	}
	return rec.Phase()
}

// The troubled run was over HTTP+SSE, where answers to cancelled reads can
// be seen; the other over Streamable HTTP, where they cannot.
func fixtureMeta(partial bool) Meta {
	m := Meta{
		ToolName: "readbench", ToolVersion: "0.1.0",
		Started: fixtureStart(), Ended: fixtureStart().Add(12 * time.Second),
		Partial: partial,
		Target: Target{
			Address: "https://bench:" + secretPassword + "@staging.example.com/mcp", Transport: "http",
			Server: Server{Name: "readbench-simserver", Version: "0.1.0"}, ProtocolVersion: "2026-07-28",
		},
		AskedRate: 50,
		Measured:  10 * time.Second,
	}
	m.Connections = &Connections{KeepAlive: true, Opened: 4, Requests: 430, Reused: 426, PeakOpen: 4}
	if !partial {
		m.GeneratorPeakRSS, m.GeneratorCPU = 40<<20, 1234*time.Millisecond
	}
	if partial {
		// the server closed most connections after its answer
		m.Connections = &Connections{KeepAlive: true, Opened: 300, Requests: 430, Reused: 130, PeakOpen: 8, ClosedByCut: 7, ClosedByServer: 289}
		m.Target.Address, m.Target.Transport = "sse+https://bench:"+secretPassword+"@staging.example.com/sse", "sse"
		m.LateObservable, m.LateWatch = true, 250*time.Millisecond
	}
	return m
}

// fixture builds the fixture's result with a fixed host, so that reports
// of it are the same on every machine.
func fixture(t testing.TB, troubled bool) *Result {
	t.Helper()
	m := fixtureMeta(troubled)
	m.AskedRate = 10.5 // the 105 turns fixtureRun schedules in its 10 s: the schedule was kept
	r, err := Build(m, fixtureWorkload(t), fixtureRun(troubled), fixtureWarmup())
	if err != nil {
		t.Fatal(err)
	}
	r.Host = Host{Hostname: "bench-host", OS: "linux", Arch: "amd64", CPUs: 8, GoVersion: "go1.26.8"}
	return r
}
