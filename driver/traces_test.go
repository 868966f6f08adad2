package driver

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload/yamlfile"
)

// TestTracingBounds: the latency past which a read broke a bound is the
// smallest upper limit of the thresholds on read latency that hold its
// class; other thresholds set none.
func TestTracingBounds(t *testing.T) {
	for _, tt := range []struct {
		name, thresholds string
		want             []time.Duration // md, png
	}{
		{"none", `{}`, []time.Duration{0, 0}},
		{"run-wide", `{read.p99: "<800ms", read_ok.max: "<=2s"}`, []time.Duration{800 * time.Millisecond, 800 * time.Millisecond}},
		{"class", `{class.png.read.p99: "<300ms", read.p999: "<1s"}`, []time.Duration{time.Second, 300 * time.Millisecond}},
		{"not read latency", `{turn.p99: "<100ms", read.mean: "<10ms", errors: "<1%", lag.p99: "<5ms"}`, []time.Duration{0, 0}},
		{"from below", `{read.p50: ">1ms"}`, []time.Duration{0, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, err := yamlfile.Parse("b.yaml", []byte(`
target: embedded
load: {rate: 1/s, duration: 1s}
mix:
  - {class: md, mime: text/markdown, size: 1KiB}
  - {class: png, mime: image/png, size: 1KiB}
thresholds: `+tt.thresholds+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			tr := newTracing(w)
			for i, want := range tt.want {
				if tr.slowAt[i] != want {
					t.Errorf("class %d: %v, want %v", i, tr.slowAt[i], want)
				}
			}
			if !tr.broke(0, true, 0) || tr.broke(0, false, 0) {
				t.Errorf("a cut read always broke a bound, a fast answer never")
			}
		})
	}
}

// TestTurnTraceShare: load.trace_sample 0 traces no turn, 1 every turn
// with a fresh trace id, a share in between about that share of turns.
func TestTurnTraceShare(t *testing.T) {
	const n = 4000
	for _, share := range []float64{0, 0.25, 1} {
		tr := tracing{share: share}
		seen := map[protocol.TraceID]bool{}
		traced := 0
		for range n {
			id := tr.turnTrace()
			if id.IsZero() {
				continue
			}
			traced++
			if seen[id] {
				t.Fatalf("share %v: trace id %s twice", share, id)
			}
			seen[id] = true
		}
		// binomial: 4 standard deviations, a false alarm once in 15,000 runs
		want, sd := share*n, 4*math.Sqrt(share*(1-share)*n)
		if float64(traced) < want-sd || float64(traced) > want+sd {
			t.Errorf("share %v: %d of %d turns traced, want %.0f ± %.0f", share, traced, n, want, sd)
		}
	}
	if p := readTrace(protocol.TraceID{}); !p.IsZero() {
		t.Errorf("an untraced turn's read carries %s", p)
	}
}

// TestRunTracesEveryRead: against the official Go SDK's server, whose
// handler extracts trace context with OpenTelemetry's propagator, every
// read of a run carries a valid traceparent, the same in its header and
// its _meta; a turn's reads share a trace id and each has a span of its
// own; the slowest reads the result keeps name traces the server saw, and
// each its own span id the server saw.
// With load.trace_sample 0 no read carries one.
func TestRunTracesEveryRead(t *testing.T) {
	for _, share := range []string{"1", "0"} {
		t.Run("trace_sample "+share, func(t *testing.T) {
			url, rec := peertest.StartTracingSDKHTTP(t, nil)
			w, err := yamlfile.Parse("traced.yaml", []byte(fmt.Sprintf(`
target: %q
load: {rate: 40/s, duration: 1s, trace_sample: %s}
turn: {attachments: 3, read_timeout: 10s}
mix:
  - {class: docs, uris: [%q, %q]}
`, url, share, peertest.Docs()[0].URI, peertest.Docs()[1].URI)))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			m, err := measure(ctx, Options{Workload: w})
			if err != nil {
				t.Fatal(err)
			}
			seen := rec.Seen()
			sent := m.MeasuredPhase.Scheduled - m.MeasuredPhase.Outcomes[stats.Dropped]
			if int64(len(seen)) < sent || len(seen) == 0 {
				t.Fatalf("the server saw %d reads, the run scheduled %d", len(seen), sent)
			}
			traces, spans := map[protocol.TraceID]int{}, map[protocol.SpanID]bool{}
			for _, s := range seen {
				if share == "0" {
					if s.Header.IsValid() || s.Meta.IsValid() {
						t.Fatalf("trace_sample 0: a read carried %v / %v", s.Header, s.Meta)
					}
					continue
				}
				// OpenTelemetry's own propagator read both routes
				if !s.Header.IsValid() || !s.Meta.IsValid() || !s.Header.Equal(s.Meta) || !s.Meta.IsSampled() {
					t.Fatalf("header %v, _meta %v: want one valid sampled trace context by both routes", s.Header, s.Meta)
				}
				id, span := protocol.TraceID(s.Meta.TraceID()), protocol.SpanID(s.Meta.SpanID())
				traces[id]++
				if spans[span] {
					t.Fatalf("span id %s on two reads", span)
				}
				spans[span] = true
			}
			slow := m.MeasuredPhase.Classes[0].Slow.Slowest
			if len(slow) == 0 {
				t.Fatal("no slow read kept")
			}
			for _, r := range slow {
				var id protocol.TraceID
				if r.TraceID != "" {
					var err error
					if id, err = protocol.ParseTraceID(r.TraceID); err != nil {
						t.Fatal(err)
					}
				}
				if share == "1" && traces[id] == 0 || share == "0" && !id.IsZero() {
					t.Errorf("slow read %s (%v) names trace %q, which the server did not see", r.URI, r.Latency, r.TraceID)
				}
				// its own span (issue 47, item 13): the parent id of the
				// server's span, which tells a turn's reads apart
				var span protocol.SpanID
				if n, err := hex.Decode(span[:], []byte(r.SpanID)); (n != len(span) || err != nil) && r.SpanID != "" {
					t.Fatalf("span id %q: want 16 lowercase hex digits", r.SpanID)
				}
				if share == "1" && !spans[span] || share == "0" && r.SpanID != "" {
					t.Errorf("slow read %s (%v) names span %q, which the server did not see", r.URI, r.Latency, r.SpanID)
				}
			}
			for id, n := range traces {
				if n != 3 {
					t.Errorf("trace %s on %d reads, want a turn's 3", id, n)
				}
			}
		})
	}
}
