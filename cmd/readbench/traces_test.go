package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/simserver"
	"go.opentelemetry.io/otel/trace"
)

// The end-to-end tests of W3C trace context (docs/measurement.md, trace
// context): what readbench sends reaches a server no one here wrote
// (the Go SDK's, read with OpenTelemetry's own propagator) and the
// simulated server, by both routes over HTTP and by _meta over stdio,
// and the trace ids a result names are the ones the server saw.

// traceWorkload samples every turn and has no warmup, so every read the
// server sees is one the result counts; its tracestate header goes with
// every traceparent (traceState).
const traceWorkload = `name: traces
seed: 7
sessions: %d
headers: {tracestate: "` + traceState + `"}
load: {rate: 20/s, warmup: 0s, duration: 1500ms, trace_sample: 1}
turn: {attachments: 2, read_timeout: 10s, deadline: 10s}
mix:
  - {class: doc, weight: 1, uri: %q}
`

// traceState is the tracestate traceWorkload sets.
const traceState = "rb=e2e,other=1"

// traceRun runs traceWorkload against target and returns the result as
// the test reads it, with its raw form.
func traceRun(t *testing.T, target, uri string, sessions int) (result, map[string]any) {
	t.Helper()
	dir := t.TempDir()
	wl := writeWorkload(t, dir, fmt.Sprintf(traceWorkload, sessions, uri))
	stdout, stderr, code := readbench(t, dir, "run", wl, "--target", target, "--out", "r.json", "-q")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	path := filepath.Join(dir, "r.json")
	r := loadResult(t, path)
	onlyGood(t, r)
	return r, rawResult(t, path)
}

// slowTraceIDs are the trace ids of the result's slow reads
// (classes[].slow_reads.slowest[].trace_id, results/slowreads.go).
func slowTraceIDs(t *testing.T, raw map[string]any) []string {
	t.Helper()
	var ids []string
	classes, _ := raw["classes"].([]any)
	for _, c := range classes {
		sr, _ := c.(map[string]any)["slow_reads"].(map[string]any)
		slowest, _ := sr["slowest"].([]any)
		for _, s := range slowest {
			id, _ := s.(map[string]any)["trace_id"].(string)
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		t.Fatalf("the result keeps no slow reads: %v", raw["classes"])
	}
	return ids
}

// checkSlowTraceIDs fails unless every trace id of the result's slow
// reads is one of the server's.
func checkSlowTraceIDs(t *testing.T, raw map[string]any, server map[string]bool) {
	t.Helper()
	bad := fewErrors(t)
	for i, id := range slowTraceIDs(t, raw) {
		if !server[id] || id == "" {
			bad.errorf("slow read %d: trace id %q: not one the server saw", i, id)
		}
	}
	bad.done()
}

// sentReads is how many reads the run sent: the scheduled ones but
// those it dropped itself.
func sentReads(r result) int64 { return r.Totals.Scheduled - r.Totals.Outcomes["dropped"] }

// TestRunTracesReachSDKServer: against the Go SDK's server over
// Streamable HTTP, every read carried one valid traceparent in its header
// and in _meta, the same, as OpenTelemetry's propagator extracts them;
// a span id per read, the workload's tracestate beside it (Header.Equal
// compares it too); and every trace id the result's slow reads name is
// one the server saw.
func TestRunTracesReachSDKServer(t *testing.T) {
	t.Parallel()
	url, rec := peertest.StartTracingSDKHTTP(t, nil)
	r, raw := traceRun(t, url, peertest.Docs()[0].URI, 1)
	seen := rec.Seen()
	if int64(len(seen)) != sentReads(r) || len(seen) == 0 {
		t.Errorf("the server saw %d reads, the run sent %d", len(seen), sentReads(r))
	}
	traces, spans := map[string]bool{}, map[string]bool{}
	bad := fewErrors(t)
	for i, s := range seen {
		switch {
		case !s.Header.IsValid() || !s.Meta.IsValid():
			bad.errorf("read %d (%s): header %s, _meta %s: want a valid traceparent by both routes", i, s.URI, spanText(s.Header), spanText(s.Meta))
		case !s.Header.Equal(s.Meta) || !s.Meta.IsSampled():
			bad.errorf("read %d: header %s and _meta %s differ, or are not sampled", i, spanText(s.Header), spanText(s.Meta))
		case s.Meta.TraceState().String() != traceState:
			bad.errorf("read %d: tracestate %q, want %q", i, s.Meta.TraceState(), traceState)
		case spans[s.Meta.SpanID().String()]:
			bad.errorf("read %d: span id %s again: want one per read", i, s.Meta.SpanID())
		}
		traces[s.Meta.TraceID().String()] = true
		spans[s.Meta.SpanID().String()] = true
	}
	bad.done()
	if int64(len(traces)) > r.Totals.Turns {
		t.Errorf("%d trace ids for %d turns: want one per turn", len(traces), r.Totals.Turns)
	}
	checkSlowTraceIDs(t, raw, traces)
}

// TestRunTracesReachSimServer: against `readbench serve --trace-log`,
// over Streamable HTTP and over stdio (two sessions, two processes
// appending to one log), the log has a line per read the run sent, each
// with a valid trace: by both routes, equal, over HTTP; by _meta over
// stdio, which has no headers.
func TestRunTracesReachSimServer(t *testing.T) {
	t.Parallel()
	uri := "sim:///traced.md?mime=text/markdown&size=2000&delay=2ms"
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			log := filepath.Join(t.TempDir(), "traces.jsonl")
			target, sessions := "stdio:"+binary+" serve --stdio --trace-log "+log, 2
			if transport == "http" {
				target, sessions = startServe(t, "--trace-log", log), 1
			}
			r, raw := traceRun(t, target, uri, sessions)
			want := sentReads(r)
			var lines []simserver.TraceLogLine
			eventually(t, 5*time.Second, fmt.Sprintf("%d lines in the trace log", want), func() bool {
				lines = readTraceLog(t, log)
				return int64(len(lines)) >= want
			})
			if int64(len(lines)) != want {
				t.Errorf("%d lines in the trace log, the run sent %d reads", len(lines), want)
			}
			traces := map[string]bool{}
			bad := fewErrors(t)
			for i, l := range lines {
				mp, merr := protocol.ParseTraceParent(l.Meta)
				switch {
				case l.URI != uri || merr != nil || !mp.Sampled || l.TraceID != mp.Trace.String() || l.SpanID != mp.Span.String():
					bad.errorf("line %d: %+v: want a sampled _meta traceparent, served (%v)", i, l, merr)
				case l.TraceState != traceState:
					bad.errorf("line %d: tracestate %q, want %q", i, l.TraceState, traceState)
				case transport == "http" && l.Header != l.Meta:
					bad.errorf("line %d: header %q, _meta %q: want the same", i, l.Header, l.Meta)
				case transport == "stdio" && l.Header != "":
					bad.errorf("line %d: a header %q over stdio", i, l.Header)
				}
				traces[l.TraceID] = true
			}
			bad.done()
			checkSlowTraceIDs(t, raw, traces)
		})
	}
}

// spanText is a span context as a traceparent would say it.
func spanText(sc trace.SpanContext) string {
	if !sc.IsValid() {
		return "none"
	}
	return fmt.Sprintf("%s-%s-%s", sc.TraceID(), sc.SpanID(), sc.TraceFlags())
}

// errorsShown is how many of a run's bad reads a test describes; the
// others it counts.
const errorsShown = 3

// badReads is a test's t.Errorf for a run's reads: the first errorsShown
// are said, and done says how many there were in all.
type badReads struct {
	t *testing.T
	n int
}

func fewErrors(t *testing.T) *badReads { return &badReads{t: t} }

func (b *badReads) errorf(format string, args ...any) {
	b.t.Helper()
	if b.n++; b.n <= errorsShown {
		b.t.Errorf(format, args...)
	}
}

func (b *badReads) done() {
	b.t.Helper()
	if b.n > errorsShown {
		b.t.Errorf("… %d bad reads in all", b.n)
	}
}

// readTraceLog reads the lines of a trace log (none while it does not
// exist), failing on a line that is not one.
func readTraceLog(t *testing.T, path string) []simserver.TraceLogLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []simserver.TraceLogLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l simserver.TraceLogLine
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.DisallowUnknownFields()
		if err := d.Decode(&l); err != nil {
			t.Fatalf("trace log line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}
