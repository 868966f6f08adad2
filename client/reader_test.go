package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

func dialOf(t *testing.T, target string) Dial {
	t.Helper()
	tg, err := targets.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	return Dial{Target: tg}
}

// TestOpenChoosesReader: the target decides the reader at connect time: a
// range+http target opens to plain HTTP documents (no session, no
// JSON-RPC), an MCP target to a session; Connect and ConnectDocuments
// each refuse the other kind of target.
func TestOpenChoosesReader(t *testing.T) {
	files := "range+" + peertest.ServeLocal(t, &peertest.Document{Data: peertest.DocBytes(10), Headers: map[string]string{protocol.HeaderSimURIs: "1"}}).URL + "/files/"
	mcpURL := peertest.StartSDKHTTP(t, nil)
	for _, tc := range []struct {
		target string
		want   string
		sim    bool
	}{
		{files, "*client.Documents", true},
		{mcpURL, "*client.Session", false},
	} {
		c, _, err := Open(context.Background(), dialOf(t, tc.target))
		if err != nil {
			t.Fatalf("%s: %v", tc.target, err)
		}
		if got := fmt.Sprintf("%T", c); got != tc.want || c.SimURIs() != tc.sim {
			t.Errorf("%s opened to %s (sim: URIs %t), want %s (%t)", tc.target, got, c.SimURIs(), tc.want, tc.sim)
		}
		_ = c.Close()
	}
	if _, _, err := Connect(context.Background(), dialOf(t, files)); err == nil || !strings.Contains(err.Error(), "plain HTTP documents") {
		t.Errorf("Connect of a range+http target: %v, want a refusal", err)
	}
	if _, _, err := ConnectDocuments(context.Background(), dialOf(t, mcpURL)); err == nil {
		t.Error("ConnectDocuments of an MCP target succeeded")
	}
}

// TestReadDocumentHTTP: Range requests until the last byte deliver the
// document's exact bytes, one part latency per part; a whole GET too; a
// server that lies in Content-Range or a missing path get the right kind.
func TestReadDocumentHTTP(t *testing.T) {
	data := peertest.DocBytes(100_001)
	want := sha256.Sum256(data)
	for _, tc := range []struct {
		name  string
		srv   *peertest.Document
		uri   string
		chunk int64
		kind  stats.Outcome
		parts int
	}{
		{"ranges", &peertest.Document{Data: data}, "sim:///doc.txt", 10_000, stats.OK, 11},
		{"one chunk bigger than the file", &peertest.Document{Data: data}, "sim:///doc.txt", 1 << 20, stats.OK, 1},
		{"whole", &peertest.Document{Data: data}, "sim:///doc.txt", 0, stats.OK, 1},
		{"missing", &peertest.Document{Data: data}, "sim:///nope.txt", 10_000, stats.NotFound, 1},
		{"lying Content-Range", &peertest.Document{Data: data, Lie: true}, "sim:///doc.txt", 10_000, stats.Protocol, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, _, err := ConnectDocuments(context.Background(), dialOf(t, "range+"+peertest.ServeLocal(t, tc.srv).URL+"/files/"))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if d.Server() != (Implementation{Name: "doc-test", Version: "1.2"}) || d.SimURIs() {
				t.Errorf("server %+v, sim: URIs %t; want the Server header's name and version, and no sim: URIs", d.Server(), d.SimURIs())
			}
			h := sha256.New()
			a, err := d.ReadDocument(context.Background(), tc.uri, ReadSpec{Chunk: tc.chunk, Sink: h})
			if err != nil {
				t.Fatal(err)
			}
			if a.Outcome != tc.kind || len(a.Parts) != tc.parts || !a.Answered {
				t.Fatalf("kind %v with %d parts (%s), answered %t; want %v with %d", a.Outcome, len(a.Parts), a.Detail, a.Answered, tc.kind, tc.parts)
			}
			if tc.kind != stats.OK {
				if a.DiskBytes != 0 || a.Detail == "" {
					t.Errorf("a failed part counted %d document bytes, detail %q", a.DiskBytes, a.Detail)
				}
				return
			}
			if got := h.Sum(nil); !bytes.Equal(got, want[:]) || a.DiskBytes != int64(len(data)) || a.WireBytes != a.DiskBytes {
				t.Errorf("sha256 %x (want %x), disk %d, wire %d", got, want, a.DiskBytes, a.WireBytes)
			}
			if a.FirstUsable.Before(a.Sent) || a.Done.Before(a.FirstUsable) {
				t.Errorf("sent %v, first usable %v, done %v out of order", a.Sent, a.FirstUsable, a.Done)
			}
		})
	}
}

// TestReadDocumentFailures: a read that gets no answer is a kind, not an
// error (a dead server is the transport kind and unanswered), unless its
// context ended it: then ctx's error comes back.
func TestReadDocumentFailures(t *testing.T) {
	srv := peertest.ServeLocal(t, &peertest.Document{Data: peertest.DocBytes(10)})
	d, _, err := ConnectDocuments(context.Background(), dialOf(t, "range+"+srv.URL+"/files/"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if a, err := d.ReadDocument(ctx, "sim:///doc.txt", ReadSpec{}); err != context.Canceled || a == nil {
		t.Errorf("cancelled read: %v, %v; want context.Canceled and an answer", a, err)
	}
	srv.Close()
	a, err := d.ReadDocument(context.Background(), "sim:///doc.txt", ReadSpec{Chunk: 4})
	if err != nil || a.Outcome != stats.Transport || a.Answered || a.Detail == "" {
		t.Errorf("read of a closed server: %+v, %v; want the transport kind, unanswered", a, err)
	}
}

// toolScript answers each tools/call with body (its result or error
// member), and everything else as a 2025-06-18 server would.
func toolScript(tool string) *Session {
	return &Session{version: protocol.V20250618, t: &scriptTransport{answer: func(method, _ string, _ int) (string, error) {
		return tool, nil
	}}}
}

// TestReadInPartsKinds: a read-tool part's failure is classified by the
// one rule for codes: a JSON-RPC -32602 is not found only when worded so,
// a tool's own code is an RPC error whatever its words, isError codes
// (structured or in the text) map by name.
func TestReadInPartsKinds(t *testing.T) {
	for _, tc := range []struct {
		answer string
		kind   stats.Outcome
		code   int
	}{
		{`"result":{"structuredContent":{"bytes":"aGk=","eof":true}}`, stats.OK, 0},
		{`"error":{"code":-32602,"message":"missing argument offset"}`, stats.InvalidParams, 0},
		{`"error":{"code":-32602,"message":"file not found: x"}`, stats.NotFound, 0},
		{`"error":{"code":-32000,"message":"file not found: x"}`, stats.RPCError, 0},
		{`"error":{"code":-32002,"message":"gone"}`, stats.NotFound, 0},
		{`"result":{"isError":true,"structuredContent":{"code":"invalid_path"}}`, stats.InvalidParams, 0},
		{`"result":{"isError":true,"content":[{"type":"text","text":"not_found: no such file"}]}`, stats.NotFound, 0},
		{`"result":{"content":[]}`, stats.Protocol, 0},
	} {
		a, err := toolScript(tc.answer).ReadDocument(context.Background(), "file:///x", ReadSpec{Chunk: 2})
		if err != nil || a.Outcome != tc.kind || !a.Answered || len(a.Parts) != 1 || (tc.kind != stats.OK) != (a.Detail != "") {
			t.Errorf("%s: %+v, %v; want kind %v", tc.answer, a, err, tc.kind)
		}
	}
}

// TestErrorKind: the one rule for JSON-RPC codes, for resources/read in
// either era and for a tool call.
func TestErrorKind(t *testing.T) {
	for _, c := range []struct {
		code int
		msg  string
		ctx  errorContext
		want stats.Outcome
	}{
		{-32002, "", legacyRead, stats.NotFound},
		{-32002, "", toolCall, stats.NotFound},
		{-32602, "Invalid params", legacyRead, stats.InvalidParams},
		{-32602, "Invalid params", modernRead, stats.NotFound}, // 2026-07-28 retired -32002
		{-32602, "Invalid params", toolCall, stats.InvalidParams},
		{-32602, "Resource not found: docs://x", legacyRead, stats.NotFound},
		{-32602, "Resource not found: docs://x", toolCall, stats.NotFound},
		{-32603, "not found", legacyRead, stats.Internal},
		{-32603, "boom", toolCall, stats.Internal},
		{-32000, "no such file", legacyRead, stats.NotFound},
		{-32000, "no such file", toolCall, stats.RPCError},
		{-32000, "custom", modernRead, stats.RPCError},
	} {
		if got := errorOutcome(c.code, c.msg, c.ctx); got != c.want {
			t.Errorf("errorOutcome(%d, %q, %d) = %v, want %v", c.code, c.msg, c.ctx, got, c.want)
		}
		if got := decided(ending{rpc: true, code: c.code, message: c.msg, answered: c.ctx}); got != c.want {
			t.Errorf("decide(JSON-RPC %d, %q, %d) = %v, want %v", c.code, c.msg, c.ctx, got, c.want)
		}
	}
}

// TestStatusAndToolCodeKinds: an HTTP status and a read tool's isError
// code map to the outcomes of the same meaning (decide).
func TestStatusAndToolCodeKinds(t *testing.T) {
	for status, want := range map[int]stats.Outcome{404: stats.NotFound, 400: stats.InvalidParams, 416: stats.InvalidParams, 500: stats.Internal, 503: stats.Internal, 403: stats.Protocol, 302: stats.Protocol} {
		if got := decided(ending{status: status}); got != want {
			t.Errorf("decide(HTTP %d) = %v, want %v", status, got, want)
		}
	}
	for code, want := range map[string]stats.Outcome{"not_found": stats.NotFound, "invalid_path": stats.InvalidParams, "internal": stats.Internal, "": stats.RPCError, "busy": stats.RPCError} {
		if got := decided(ending{tool: true, toolCode: code}); got != want {
			t.Errorf("decide(isError %q) = %v, want %v", code, got, want)
		}
	}
}

// TestDecideFailures: an exchange that got no answer is unauthorized when
// its token was refused (decided first), protocol when what came broke
// the transport's rules, else transport; a usable answer is ok and an
// unusable one protocol, whatever else it said.
func TestDecideFailures(t *testing.T) {
	for _, c := range []struct {
		why  string
		e    ending
		want stats.Outcome
	}{
		{"refused token", ending{failed: fmt.Errorf("read: %w (%w)", ErrUnauthorized, ErrProtocol)}, stats.Unauthorized},
		{"broken framing", ending{failed: fmt.Errorf("read: %w", ErrProtocol)}, stats.Protocol},
		{"dead connection", ending{failed: fmt.Errorf("read: %w", ErrTransport)}, stats.Transport},
		{"any other failure", ending{failed: errors.New("boom")}, stats.Transport},
		{"unusable", unusableAnswer("empty contents"), stats.Protocol},
		{"input required", ending{input: true}, stats.InputRequired},
		{"usable", ending{}, stats.OK},
	} {
		var a Answer
		a.decide(c.e)
		if a.Outcome != c.want || (c.e.failed != nil && a.Detail != c.e.failed.Error()) {
			t.Errorf("%s: %v %q, want %v", c.why, a.Outcome, a.Detail, c.want)
		}
	}
}

// decided is the outcome decide gives an answer ending as e.
func decided(e ending) stats.Outcome {
	var a Answer
	a.decide(e)
	return a.Outcome
}

// TestHandshakeLearnsSimURIs: whether a server serves any sim: URI is
// what its handshake advertises (capabilities.experimental), in either
// era, never its name.
func TestHandshakeLearnsSimURIs(t *testing.T) {
	const caps = `"capabilities":{"experimental":{"` + protocol.CapabilitySimURIs + `":{}}}`
	for _, c := range []struct {
		name   string
		answer func(method, version string, n int) (string, error)
		want   bool
	}{
		{"initialize advertises", func(method, _ string, _ int) (string, error) {
			if method == protocol.MethodInitialize {
				return `"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"any","version":"1"},` + caps + `}`, nil
			}
			return `"error":{"code":-32601,"message":"no"}`, nil
		}, true},
		{"discover advertises", func(string, string, int) (string, error) {
			return `"result":{"supportedVersions":["` + protocol.Latest + `"],` + caps + `}`, nil
		}, true},
		{"named like the simulated server, advertises nothing", func(method, _ string, _ int) (string, error) {
			if method == protocol.MethodInitialize {
				return `"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"` + protocol.SimServerName + `","version":"1"},"capabilities":[]}`, nil
			}
			return `"error":{"code":-32601,"message":"no"}`, nil
		}, false},
	} {
		s := &Session{t: &scriptTransport{answer: c.answer}}
		if err := s.handshake(context.Background(), "auto"); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.SimURIs() != c.want {
			t.Errorf("%s: SimURIs %t, want %t", c.name, s.SimURIs(), c.want)
		}
	}
}
