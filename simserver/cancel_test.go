package simserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/protocol"
)

// TestStdioCancel: notifications/cancelled stops a slow read, which then
// answers nothing, while a later read is answered.
func TestStdioCancel(t *testing.T) {
	s := New(Options{})
	p := startStdio(t, s)
	p.send(request(t, 1, protocol.MethodResourcesRead, readParams("sim:///slow?delay=2s", "")))
	waitStats(t, s, "the slow read in flight", func(st Stats) bool { return st.InFlight == 1 })
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"turn deadline"}}`)
	p.send(request(t, 2, protocol.MethodResourcesRead, readParams("sim:///fast?size=10", "")))
	if m := p.next(); idOf(m) != "2" {
		t.Fatalf("first answer is id %s, want 2", m.ID)
	}
	waitStats(t, s, "the slow read cancelled", func(st Stats) bool { return st.Cancelled == 1 && st.InFlight == 0 })
	for _, m := range p.close() {
		t.Errorf("unexpected message after cancel: id %s", m.ID)
	}
	if st := s.Stats(); st.Answered != 1 || st.Late != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestStdioCancelIgnored: with honor_cancel=false the answer comes anyway,
// the late answer the driver must count.
func TestStdioCancelIgnored(t *testing.T) {
	s := New(Options{})
	p := startStdio(t, s)
	p.send(request(t, 1, protocol.MethodResourcesRead, readParams("sim:///stubborn?delay=300ms&honor_cancel=false&size=5", "")))
	waitStats(t, s, "the read in flight", func(st Stats) bool { return st.InFlight == 1 })
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	p.send(request(t, 2, protocol.MethodPing, nil))
	got := map[string]bool{}
	for range 2 {
		got[idOf(p.next())] = true
	}
	if !got["1"] || !got["2"] {
		t.Errorf("answers %v, want ids 1 and 2", got)
	}
	waitStats(t, s, "one late answer", func(st Stats) bool { return st.Late == 1 && st.Cancelled == 1 && st.Answered == 1 })
}

// TestStdioConcurrent: many reads in flight on one pipe are answered out of
// order, every one whole.
func TestStdioConcurrent(t *testing.T) {
	s := New(Options{})
	p := startStdio(t, s)
	p.send(request(t, 1, protocol.MethodResourcesRead, readParams("sim:///a?delay=200ms&size=100000", "")))
	for id := 2; id <= 50; id++ {
		p.send(request(t, id, protocol.MethodResourcesRead, readParams("sim:///b?size=70000&mime=text/markdown", "")))
	}
	seen := map[string]bool{}
	for range 50 {
		m := p.next()
		if decodeRead(t, m); seen[idOf(m)] {
			t.Errorf("id %s twice", m.ID)
		}
		seen[idOf(m)] = true
	}
	if len(seen) != 50 {
		t.Errorf("%d distinct answers", len(seen))
	}
}

// TestHTTPCancel: closing the request (the 2026-07-28 way, and what the SDK
// does in both eras) stops the read on the server; nothing is answered.
func TestHTTPCancel(t *testing.T) {
	for _, session := range []*mcp.ClientSessionOptions{nil, {ProtocolVersion: protocol.V20251125}} {
		s := New(Options{})
		cs := connectHTTP(t, startHTTP(t, s), session)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "sim:///slow?delay=5s"})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("read: %v, want deadline exceeded", err)
		}
		waitStats(t, s, "the read cancelled on the server", func(st Stats) bool { return st.Cancelled == 1 && st.InFlight == 0 })
		if st := s.Stats(); st.Answered != 0 || time.Since(start) > 3*time.Second {
			t.Errorf("stats %+v after %v", st, time.Since(start))
		}
	}
}

// TestHTTPSessionCancel: in a stateful legacy session, notifications/cancelled
// on another POST cancels the read; the open stream ends without an answer.
func TestHTTPSessionCancel(t *testing.T) {
	s := New(Options{Stateful: true})
	url := startHTTP(t, s)
	_, hdr, _ := post(t, url, nil, request(t, 1, protocol.MethodInitialize, map[string]any{"protocolVersion": protocol.V20251125}))
	sid := map[string]string{protocol.HeaderSessionID: hdr.Get(protocol.HeaderSessionID)}
	type result struct {
		status int
		body   string
	}
	done := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(request(t, 7, protocol.MethodResourcesRead, readParams("sim:///slow?delay=5s", ""))))
		req.Header.Set(protocol.HeaderSessionID, sid[protocol.HeaderSessionID])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- result{}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- result{resp.StatusCode, string(b)}
	}()
	waitStats(t, s, "the read in flight", func(st Stats) bool { return st.InFlight == 1 })
	if status, _, _ := post(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`); status != http.StatusAccepted {
		t.Fatalf("cancel: %d", status)
	}
	select {
	case r := <-done:
		if r.status != http.StatusOK || r.body != "" {
			t.Errorf("cancelled read answered %d %q", r.status, r.body)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the cancelled read is still open")
	}
	waitStats(t, s, "one cancelled read", func(st Stats) bool { return st.Cancelled == 1 && st.Answered == 0 })
}

// TestStatsByCode: the answers sent are counted by their error code (0 for
// a result), and their bytes: what serve --metrics exports.
func TestStatsByCode(t *testing.T) {
	s := New(Options{})
	p := startStdio(t, s)
	var bytes int
	for i, uri := range []string{"sim:///a?size=10", "sim:///b?size=20", "sim:///c?error=-32603"} {
		line := request(t, i+1, protocol.MethodResourcesRead, readParams(uri, ""))
		m := p.roundTrip(line)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		bytes += len(b)
	}
	p.close()
	st := s.Stats()
	if st.Codes[0] != 2 || st.Codes[-32603] != 1 || len(st.Codes) != 2 {
		t.Errorf("answers by code %v", st.Codes)
	}
	if st.Bytes < int64(bytes)/2 || st.Bytes > 2*int64(bytes) {
		t.Errorf("bytes %d, the answers are about %d", st.Bytes, bytes)
	}
}
