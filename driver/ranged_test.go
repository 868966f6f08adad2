package driver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// docServer serves one document at /files/doc.txt with net/http's own
// Range support, and lets a test break it: lie shifts every
// Content-Range by one byte, delay holds each answer.
type docServer struct {
	data  []byte
	lie   bool
	delay time.Duration
}

func (d *docServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		w.Header().Set("Server", "doc-test/1.2")
		return
	}
	if r.URL.Path != "/files/doc.txt" {
		http.Error(w, `{"code":"not_found"}`, http.StatusNotFound)
		return
	}
	if d.delay > 0 {
		select {
		case <-time.After(d.delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain")
	if d.lie {
		w = &lyingWriter{ResponseWriter: w}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(d.data))
}

// lyingWriter adds one to the first number of Content-Range.
type lyingWriter struct{ http.ResponseWriter }

func (l *lyingWriter) WriteHeader(code int) {
	h := l.Header()
	var a, b, n int64
	if _, err := fmt.Sscanf(h.Get("Content-Range"), "bytes %d-%d/%d", &a, &b, &n); err == nil {
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", a+1, b, n))
	}
	l.ResponseWriter.WriteHeader(code)
}

func docBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i*7%26)
	}
	return b
}

func filesSession(t *testing.T, d *docServer) *client.Session {
	t.Helper()
	hs := peertest.ServeLocal(t, d)
	return targetSession(t, "range+"+hs.URL+"/files/")
}

// targetSession is a session with a target, closed when the test ends.
func targetSession(t *testing.T, target string) *client.Session {
	t.Helper()
	tg, err := targets.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := client.Connect(context.Background(), client.Dial{Target: tg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// runWorkload parses a workload and runs it, bounded by 30 seconds.
func runWorkload(t *testing.T, yaml string) *Report {
	t.Helper()
	w, err := workload.Parse("ranged.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := Run(ctx, Options{Workload: w})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFetchDocumentHTTP: Range requests until the last byte deliver the
// document's exact bytes, one chunk latency per part; a whole GET too; a
// server that lies in Content-Range or a missing path get the right
// outcome.
func TestFetchDocumentHTTP(t *testing.T) {
	data := docBytes(100_001)
	want := sha256.Sum256(data)
	cases := []struct {
		name    string
		srv     *docServer
		uri     string
		chunk   int64
		outcome stats.Outcome
		parts   int
	}{
		{"ranges", &docServer{data: data}, "sim:///doc.txt", 10_000, stats.OK, 11},
		{"one chunk bigger than the file", &docServer{data: data}, "sim:///doc.txt", 1 << 20, stats.OK, 1},
		{"whole", &docServer{data: data}, "sim:///doc.txt", 0, stats.OK, 1},
		{"missing", &docServer{data: data}, "sim:///nope.txt", 10_000, stats.NotFound, 1},
		{"lying Content-Range", &docServer{data: data, lie: true}, "sim:///doc.txt", 10_000, stats.Protocol, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := filesSession(t, tc.srv)
			if s.Server().Name != "doc-test" || s.Server().Version != "1.2" {
				t.Errorf("server %+v, want the Server header's name and version", s.Server())
			}
			h := sha256.New()
			f, err := FetchDocument(context.Background(), s, tc.uri, tc.chunk, 0, h)
			if err != nil {
				t.Fatal(err)
			}
			if f.Outcome != tc.outcome || len(f.Chunks) != tc.parts {
				t.Fatalf("outcome %v with %d parts (%s), want %v with %d", f.Outcome, len(f.Chunks), f.Detail, tc.outcome, tc.parts)
			}
			if tc.outcome != stats.OK {
				if f.DiskBytes != 0 {
					t.Errorf("a failed part counted %d document bytes", f.DiskBytes)
				}
				return
			}
			if got := h.Sum(nil); !bytes.Equal(got, want[:]) || f.DiskBytes != int64(len(data)) || f.WireBytes != f.DiskBytes {
				t.Errorf("sha256 %x (want %x), disk %d, wire %d", got, want, f.DiskBytes, f.WireBytes)
			}
			if f.FirstUsable.Before(f.Sent) || f.Done.Before(f.FirstUsable) {
				t.Errorf("sent %v, first usable %v, done %v out of order", f.Sent, f.FirstUsable, f.Done)
			}
		})
	}
}

// TestRangedRunCutByDeadline: a ranged fetch whose parts are slow is cut by
// its turn's deadline: cancelled, recorded at the cut as a lower bound,
// never as a fast read; the parts that did arrive are kept apart.
func TestRangedRunCutByDeadline(t *testing.T) {
	hs := peertest.ServeLocal(t, &docServer{data: docBytes(50_000), delay: 120 * time.Millisecond})
	rep := runWorkload(t, fmt.Sprintf(`
name: ranged
target: %q
load: {model: closed, concurrency: 1, turns: 2}
turn: {attachments: 1, read_timeout: 10s, deadline: 300ms}
mix:
  - {class: log, uri: "sim:///doc.txt", ranged: {chunk: 10000}}
`, "range+"+hs.URL+"/files/"))
	run := rep.Run
	if run.Outcomes[stats.Cancelled] != 2 || run.ReadLowerBounds != 2 {
		t.Fatalf("outcomes %v, lower bounds %d: want 2 cancelled at the cut", run.Outcomes, run.ReadLowerBounds)
	}
	if q := run.Read.Quantile(50); q < 300*time.Millisecond {
		t.Errorf("cut reads recorded at %v, before the 300ms deadline", q)
	}
	if n := run.Chunk.Count(); n < 2 || n > 6 {
		t.Errorf("%d chunk latencies recorded; want the 2 or so parts per fetch that beat the deadline", n)
	}
	if rep.LateObservable {
		t.Error("late answers claimed observable on plain HTTP")
	}
}

// TestRangedRunHTTP: a whole run of a ranged class and a whole class on a
// range+http target: every read ok, chunk latency apart from read latency,
// wire = disk (raw bytes), first usable byte before the last.
func TestRangedRunHTTP(t *testing.T) {
	hs := peertest.ServeLocal(t, &docServer{data: docBytes(100_000)})
	rep := runWorkload(t, fmt.Sprintf(`
name: ranged
target: %q
load: {model: closed, concurrency: 2, turns: 6}
turn: {attachments: 1, read_timeout: 10s}
mix:
  - {class: chunked, uri: "sim:///doc.txt", ranged: {chunk: 25000}}
  - {class: whole, uri: "sim:///doc.txt"}
`, "range+"+hs.URL+"/files/"))
	run := rep.Run
	if run.Outcomes[stats.OK] != run.Scheduled || run.Scheduled == 0 {
		t.Fatalf("outcomes %v of %d", run.Outcomes, run.Scheduled)
	}
	ch, wh := run.Classes[0], run.Classes[1]
	if n := ch.Outcomes.Total(); ch.Chunk.Count() != 4*n || wh.Chunk.Count() != wh.Outcomes.Total() {
		t.Errorf("chunk latencies: %d for %d ranged reads (want 4 each), %d for %d whole", ch.Chunk.Count(), n, wh.Chunk.Count(), wh.Outcomes.Total())
	}
	for _, c := range run.Classes {
		if c.WireBytes != c.DiskBytes || c.DiskBytes != 100_000*c.Outcomes.Total() {
			t.Errorf("%s: wire %d, disk %d", c.Name, c.WireBytes, c.DiskBytes)
		}
		if c.FirstUsable.Count() != c.Outcomes.Total() || c.FirstUsable.Quantile(50) > c.Latency.Quantile(50) {
			t.Errorf("%s: first usable %v (n=%d) after the whole read %v", c.Name, c.FirstUsable.Quantile(50), c.FirstUsable.Count(), c.Latency.Quantile(50))
		}
	}
	if !strings.Contains(rep.Target.String(), "range+http://127.0.0.1:") || rep.Server.Name != "doc-test" {
		t.Errorf("target %s, server %+v", rep.Target, rep.Server)
	}
}

// TestDecodePart: the read tool's answers, decoded to bytes or an outcome.
func TestDecodePart(t *testing.T) {
	cases := []struct {
		body    string
		outcome stats.Outcome
		data    string
		eof     bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"aGk=","content_type":"text/plain","eof":true}}}`, stats.OK, "hi", true},
		{`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"","eof":false}}}`, stats.OK, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"structuredContent":{"code":"invalid_path"}}}`, stats.InvalidParams, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"structuredContent":{"code":"not_found"}}}`, stats.NotFound, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}`, stats.RPCError, "", false},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"x"}}`, stats.Internal, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"!!","eof":true}}}`, stats.Protocol, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, stats.Protocol, "", false},
		{`not json`, stats.Protocol, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"Pz8\/","eof":false}}}`, stats.OK, "???", false}, // \/ is legal JSON
		{`{"id":1,"result":{"structuredContent":{"bytes":"aGk=","eof":true}}}`, stats.Protocol, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"aGk=","eof":"yes"}}}`, stats.Protocol, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\"bytes\":\"aGk=\""}],"structuredContent":{"bytes":"","eof":true}}}`, stats.OK, "", true},
	}
	for _, c := range cases {
		p, o, why := decodePart([]byte(c.body))
		if o != c.outcome || string(p.data) != c.data || (o == stats.OK && p.eof != c.eof) {
			t.Errorf("decodePart(%s) = %q eof %t, %v (%s); want %q, %v", c.body, p.data, p.eof, o, why, c.data, c.outcome)
		}
	}
}

// FuzzDecodePart: any answer decodes to bytes or an outcome, never a
// panic, and decoded bytes are exactly the base64 the answer carried.
func FuzzDecodePart(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"aGk=","content_type":"text/plain","eof":true}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"structuredContent":{"code":"invalid_path"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"x"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"Pz8\/","eof":false}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, o, why := decodePart(body)
		if o != stats.OK && (len(p.data) != 0 || why == "") {
			t.Errorf("outcome %v with %d bytes, why %q", o, len(p.data), why)
		}
		if o == stats.OK && int64(len(p.data)) > p.b64 {
			t.Errorf("%d bytes from %d base64 characters", len(p.data), p.b64)
		}
	})
}

// TestDecodePartClipsMessages: a server message quoting a whole part (the
// Go SDK's output validation does) is clipped for the log.
func TestDecodePartClipsMessages(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"` + strings.Repeat("QUJD", 50_000) + `"}}`
	_, o, why := decodePart([]byte(body))
	if o != stats.RPCError || len(why) > 300 || !strings.Contains(why, "(200000 bytes)") {
		t.Errorf("%v, %d bytes of why: %.80s", o, len(why), why)
	}
}

// A part's JSON-RPC error maps as a whole read's does: -32602 worded as
// not found is not_found, any other -32602 invalid_params.
func TestRPCOutcome(t *testing.T) {
	for _, c := range []struct {
		code int
		msg  string
		want stats.Outcome
	}{
		{-32002, "", stats.NotFound},
		{-32602, "Resource not found: docs://x", stats.NotFound},
		{-32602, "missing argument offset", stats.InvalidParams},
		{-32603, "boom", stats.Internal},
		{-32000, "custom", stats.RPCError},
	} {
		if got := rpcOutcome(c.code, c.msg); got != c.want {
			t.Errorf("rpcOutcome(%d, %q) = %v, want %v", c.code, c.msg, got, c.want)
		}
	}
}
