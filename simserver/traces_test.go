package simserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// The traceparents of the tests: two of one trace (another span), and
// one that W3C says a receiver must refuse (an all-zero span id).
const (
	tpA       = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	tpB       = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-00"
	tpInvalid = "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01"
)

// TestReadTraceContext: a read's trace context is counted by the route
// it came by, refused when not valid, and a header and _meta that
// disagree are counted as such; the trace log says which trace each read
// is served in. Over HTTP (both routes) and, for _meta, over stdio.
func TestReadTraceContext(t *testing.T) {
	uri := "sim:///t.md?mime=text/markdown&size=10"
	cases := []struct {
		what                 string
		header, meta         string // "" when absent
		headerTS, metaTS     string
		want                 TraceStats
		traceID, span, state string
		sampled              bool
	}{
		{what: "none"},
		{what: "header only", header: tpA, headerTS: "k=v",
			want: TraceStats{Header: 1}, traceID: "0af7651916cd43dd8448eb211c80319c", span: "b7ad6b7169203331", sampled: true, state: "k=v"},
		{what: "meta only", meta: tpB,
			want: TraceStats{Meta: 1}, traceID: "0af7651916cd43dd8448eb211c80319c", span: "00f067aa0ba902b7"},
		{what: "both equal", header: tpA, meta: tpA, headerTS: "k=v", metaTS: "k=v",
			want: TraceStats{Header: 1, Meta: 1}, traceID: "0af7651916cd43dd8448eb211c80319c", span: "b7ad6b7169203331", sampled: true, state: "k=v"},
		{what: "both different", header: tpA, meta: tpB,
			want: TraceStats{Header: 1, Meta: 1, Mismatch: 1}, traceID: "0af7651916cd43dd8448eb211c80319c", span: "00f067aa0ba902b7"},
		{what: "tracestates different", header: tpA, meta: tpA, headerTS: "k=v", metaTS: "k=w",
			want: TraceStats{Header: 1, Meta: 1, Mismatch: 1}, traceID: "0af7651916cd43dd8448eb211c80319c", span: "b7ad6b7169203331", sampled: true, state: "k=w"},
		{what: "header invalid", header: tpInvalid, meta: tpA,
			want: TraceStats{Meta: 1, Invalid: 1}, traceID: "0af7651916cd43dd8448eb211c80319c", span: "b7ad6b7169203331", sampled: true},
		{what: "meta invalid", header: tpA, meta: strings.ToUpper(tpA),
			want: TraceStats{Header: 1, Invalid: 1}, traceID: "0af7651916cd43dd8448eb211c80319c", span: "b7ad6b7169203331", sampled: true},
		{what: "both invalid", header: "garbage", meta: tpInvalid, want: TraceStats{Invalid: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.what, func(t *testing.T) {
			var log bytes.Buffer
			s := New(Options{TraceLog: &log})
			url := startHTTP(t, s)
			params := readParams(uri, protocol.V20260728)
			meta := params["_meta"].(map[string]any)
			if tc.meta != "" {
				meta[protocol.MetaTraceParent] = tc.meta
			}
			if tc.metaTS != "" {
				meta[protocol.MetaTraceState] = tc.metaTS
			}
			h := modernHeaders(protocol.MethodResourcesRead, uri)
			h[protocol.HeaderTraceParent], h[protocol.HeaderTraceState] = tc.header, tc.headerTS
			status, _, body := post(t, url, h, request(t, 1, protocol.MethodResourcesRead, params))
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body) // trace context never fails a read
			}
			decodeRead(t, decodeMsg(t, body))
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			got := s.Stats().Traces
			if want := tc.want; got.Header != want.Header || got.Meta != want.Meta || got.Invalid != want.Invalid || got.Mismatch != want.Mismatch || got.Logged != 1 || got.LogDropped != 0 {
				t.Errorf("counts %+v, want %+v and one line logged", got, want)
			}
			lines := traceLines(t, log.Bytes())
			if len(lines) != 1 {
				t.Fatalf("%d lines logged: %s", len(lines), log.Bytes())
			}
			want := TraceLogLine{URI: uri, TraceID: tc.traceID, SpanID: tc.span, Sampled: tc.sampled, Header: tc.header, Meta: tc.meta, TraceState: tc.state}
			if lines[0] != want {
				t.Errorf("logged %+v\nwant   %+v", lines[0], want)
			}
		})
	}
}

// TestStdioTraceContext: over stdio the trace context comes in _meta
// only, legacy era included, and a _meta traceparent that is not a string
// is invalid, never a failed read.
func TestStdioTraceContext(t *testing.T) {
	var log bytes.Buffer
	s := New(Options{TraceLog: &log})
	p := startStdio(t, s)
	uri := "sim:///t.md?mime=text/markdown&size=10"
	modern := readParams(uri, protocol.V20260728)
	modern["_meta"].(map[string]any)[protocol.MetaTraceParent] = tpA
	legacy := map[string]any{"uri": uri, "_meta": map[string]any{protocol.MetaTraceParent: tpB, protocol.MetaTraceState: "a=1"}}
	bad := map[string]any{"uri": uri, "_meta": map[string]any{protocol.MetaTraceParent: 7}}
	for i, params := range []map[string]any{modern, legacy, bad, {"uri": uri}} {
		decodeRead(t, p.roundTrip(request(t, i+1, protocol.MethodResourcesRead, params)))
	}
	p.close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().Traces; got != (TraceStats{Meta: 2, Invalid: 1, Logged: 4}) {
		t.Errorf("counts %+v", got)
	}
	lines := traceLines(t, log.Bytes())
	if len(lines) != 4 || lines[0].SpanID != "b7ad6b7169203331" || lines[1].SpanID != "00f067aa0ba902b7" || lines[1].TraceState != "a=1" ||
		lines[2].TraceID != "" || lines[3].TraceID != "" || lines[3].Meta != "" {
		t.Errorf("logged %+v", lines)
	}
}

// TestHeaderTraceOf: two traceparent headers make the header route
// invalid (W3C); tracestate headers are one list.
func TestHeaderTraceOf(t *testing.T) {
	h := http.Header{}
	h.Add(protocol.HeaderTraceParent, tpA)
	h.Add(protocol.HeaderTraceState, "a=1")
	h.Add(protocol.HeaderTraceState, "b=2")
	if got := headerTraceOf(h); got != (headerTrace{parent: tpA, state: "a=1,b=2"}) {
		t.Errorf("one traceparent: %+v", got)
	}
	h.Add(protocol.HeaderTraceParent, tpB)
	s := New(Options{})
	c := &call{method: protocol.MethodResourcesRead, hdr: headerTraceOf(h)}
	s.observeTrace(c)
	if got := s.Stats().Traces; got != (TraceStats{Invalid: 1}) {
		t.Errorf("two traceparents: %+v", got)
	}
}

// TestTraceLogWriteError: a trace log that cannot be written costs no
// read, and Close says why.
func TestTraceLogWriteError(t *testing.T) {
	s := New(Options{TraceLog: failingWriter{}})
	p := startStdio(t, s)
	decodeRead(t, p.roundTrip(request(t, 1, protocol.MethodResourcesRead, map[string]any{"uri": "sim:///a?size=3"})))
	p.close()
	if err := s.Close(); err == nil || !errors.Is(err, errDiskFull) {
		t.Errorf("Close: %v, want the write's error", err)
	}
}

var errDiskFull = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func traceLines(t *testing.T, b []byte) []TraceLogLine {
	t.Helper()
	var out []TraceLogLine
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var tl TraceLogLine
		d := json.NewDecoder(bytes.NewReader(l))
		d.DisallowUnknownFields()
		if err := d.Decode(&tl); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, tl)
	}
	return out
}
