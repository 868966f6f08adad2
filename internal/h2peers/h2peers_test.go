package h2peers

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

func TestMain(m *testing.M) { peertest.Main(m, nil) }

// The tests below speak to each peer with the standard library's client
// only (Peer.Transport: HTTP/2 and nothing else), never readbench's: that
// the peer answers over HTTP/2 is checked on every answer (ProtoMajor),
// and that its MCP endpoint works by an initialize, the initialized
// notification and a resources/read whose content is compared.

const protocolVersion = "2025-06-18"

// session is one MCP session with a peer over HTTP/2.
type session struct {
	t    *testing.T
	peer *Peer
	c    *http.Client
	id   string // Mcp-Session-Id, once the peer gave one
	next int
}

func newSession(t *testing.T, p *Peer) *session {
	c := p.Client()
	t.Cleanup(c.CloseIdleConnections)
	return &session{t: t, peer: p, c: c}
}

// post sends one JSON-RPC message and returns the answer's status and, for
// a request, the result (an error answer fails the test).
func (s *session) post(method string, params any, notify bool) (int, json.RawMessage) {
	s.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if !notify {
		s.next++
		msg["id"] = s.next
	}
	body, _ := json.Marshal(msg)
	req, err := http.NewRequest(http.MethodPost, s.peer.URL, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if method != "initialize" {
		req.Header.Set("MCP-Protocol-Version", protocolVersion)
	}
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
	}
	resp, err := s.c.Do(req)
	if err != nil {
		s.t.Fatalf("%s: POST %s: %v", s.peer.Name, method, err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 {
		s.t.Fatalf("%s: %s answered over %s, not HTTP/2", s.peer.Name, method, resp.Proto)
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		s.id = id
	}
	if notify {
		io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		s.t.Fatalf("%s: %s: %s: %s", s.peer.Name, method, resp.Status, b)
	}
	raw := s.answer(resp)
	var a struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || a.ID != s.next || a.Error != nil {
		s.t.Fatalf("%s: %s: answer %.300s (%v)", s.peer.Name, method, raw, err)
	}
	return resp.StatusCode, a.Result
}

// answer is the JSON-RPC answer in resp's body: the body itself, or the
// data of the event stream's first event that has an id.
func (s *session) answer(resp *http.Response) []byte {
	s.t.Helper()
	ct := resp.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "application/json") {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			s.t.Fatal(err)
		}
		return b
	}
	if !strings.HasPrefix(ct, "text/event-stream") {
		s.t.Fatalf("%s: answer of type %q", s.peer.Name, ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 4<<20)
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "data:"); ok {
			data = append(data, strings.TrimPrefix(d, " ")...)
			continue
		}
		if line == "" && len(data) > 0 {
			var m struct{ ID json.RawMessage }
			if json.Unmarshal(data, &m) == nil && m.ID != nil {
				return data
			}
			data = data[:0]
		}
	}
	s.t.Fatalf("%s: the event stream ended without an answer (%v)", s.peer.Name, sc.Err())
	return nil
}

// initialize opens the session: initialize, then the initialized
// notification (accepted: 202).
func (s *session) initialize() {
	s.t.Helper()
	_, res := s.post("initialize", map[string]any{
		"protocolVersion": protocolVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "readbench-h2peers-test", "version": "0"},
	}, false)
	var init struct {
		ProtocolVersion string
		ServerInfo      struct{ Name, Version string }
	}
	if err := json.Unmarshal(res, &init); err != nil || init.ProtocolVersion != protocolVersion {
		s.t.Fatalf("%s: initialize: %s (%v)", s.peer.Name, res, err)
	}
	if code, _ := s.post("notifications/initialized", map[string]any{}, true); code != http.StatusAccepted {
		s.t.Fatalf("%s: notifications/initialized: %d", s.peer.Name, code)
	}
	s.t.Logf("%s at %s: %s %s, session %q", s.peer.Name, s.peer.URL, init.ServerInfo.Name, init.ServerInfo.Version, s.id)
}

// read reads uri and returns its one content, text or decoded blob.
func (s *session) read(uri string) []byte {
	s.t.Helper()
	_, res := s.post("resources/read", map[string]any{"uri": uri}, false)
	var r struct {
		Contents []struct{ URI, Text, Blob string }
	}
	if err := json.Unmarshal(res, &r); err != nil || len(r.Contents) != 1 || r.Contents[0].URI != uri {
		s.t.Fatalf("%s: read %s: %.300s (%v)", s.peer.Name, uri, res, err)
	}
	if r.Contents[0].Blob != "" {
		b, err := base64.StdEncoding.DecodeString(r.Contents[0].Blob)
		if err != nil {
			s.t.Fatal(err)
		}
		return b
	}
	return []byte(r.Contents[0].Text)
}

func TestNginxEverything(t *testing.T) {
	p := NginxEverything(t)
	s := newSession(t, p)
	s.initialize()
	if s.id == "" {
		t.Error("no Mcp-Session-Id came through nginx")
	}
	want, err := os.ReadFile(repoFile("peers", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.read("demo://resource/static/document/architecture.md"); !bytes.Equal(got, want) {
		t.Errorf("architecture.md: %d bytes, want the file's %d", len(got), len(want))
	}
	// nginx itself says which protocol each request came over (its log
	// is written within 100 ms).
	var log []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if log, _ = os.ReadFile(p.Logs + "/access.log"); bytes.Count(log, []byte("\n")) >= 3 {
			break
		}
	}
	if n := strings.Count(string(log), "HTTP/2.0 POST /mcp "); n != 3 {
		t.Errorf("nginx logged %d HTTP/2 POSTs, want 3:\n%s", n, log)
	}
}

// TestNginxStreamsEvents: nginx passes an event stream on as it comes:
// server-everything's long-running tool sends a progress notification
// after 1 s and its result after 2 s, and the notification reaches the
// client that much before the result, not with it. (The configuration
// turns proxy_buffering off; nginx 1.22 was seen to pass this small
// stream as promptly with it on, so the test guards the streaming, not
// that directive.)
func TestNginxStreamsEvents(t *testing.T) {
	p := NginxEverything(t)
	s := newSession(t, p)
	s.initialize()
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"trigger-long-running-operation",` +
		`"arguments":{"duration":2,"steps":2},"_meta":{"progressToken":"p"}}}`
	req, err := http.NewRequest(http.MethodPost, p.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	req.Header.Set("Mcp-Session-Id", s.id)
	resp, err := s.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("%s %s, %q", resp.Proto, resp.Status, resp.Header.Get("Content-Type"))
	}
	var progress, result time.Time
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && result.IsZero() {
		switch line := sc.Text(); {
		case strings.Contains(line, `"notifications/progress"`) && progress.IsZero():
			progress = time.Now()
		case strings.Contains(line, `"id":9`):
			result = time.Now()
		}
	}
	if progress.IsZero() || result.IsZero() {
		t.Fatalf("progress at %v, result at %v (%v)", progress, result, sc.Err())
	}
	// The server waits 1 s between the two; a buffering proxy would hand
	// both over at once.
	if gap := result.Sub(progress); gap < 500*time.Millisecond {
		t.Errorf("the progress notification came only %v before the result: nginx held the event stream back", gap)
	}
}

func TestNodeSDK(t *testing.T) {
	for _, m := range []NodeMode{
		{}, {SSE: true}, {Stateless: true}, {Stateless: true, SSE: true},
		{H2C: true}, {H2C: true, SSE: true}, {H2C: true, Stateless: true}, {H2C: true, Stateless: true, SSE: true},
	} {
		t.Run(strings.ReplaceAll(m.String(), " ", "-"), func(t *testing.T) {
			t.Parallel()
			p := NodeSDK(t, m)
			s := newSession(t, p)
			s.initialize()
			if (s.id == "") != m.Stateless {
				t.Errorf("session id %q in mode %s", s.id, m)
			}
			const line = "readbench sdk-resources: a document of known size, ASCII only.\n"
			if got, want := string(s.read("doc://text/1k")), strings.Repeat(line, 17)[:1024]; got != want {
				t.Errorf("doc://text/1k: %q", got)
			}
			blob := s.read("doc://blob/4k")
			for i, b := range blob {
				if b != byte(i) {
					t.Fatalf("doc://blob/4k: byte %d is %d", i, b)
				}
			}
			if len(blob) != 4096 {
				t.Errorf("doc://blob/4k: %d bytes", len(blob))
			}
		})
	}
}

// TestRefuseHTTP1: every peer but nginx offers HTTP/2 alone (Node's
// allowHTTP1: false, net/http's Protocols), so that a client that falls
// back to HTTP/1.1 cannot pass for one that speaks HTTP/2: an HTTP/1.1
// request gets no answer, over TLS or in clear.
func TestRefuseHTTP1(t *testing.T) {
	for _, c := range []struct {
		name  string
		start func(t *testing.T) *Peer
	}{
		{"node-tls", func(t *testing.T) *Peer { return NodeSDK(t, NodeMode{Stateless: true}) }},
		{"node-h2c", func(t *testing.T) *Peer { return NodeSDK(t, NodeMode{H2C: true, Stateless: true}) }},
		{"go-tls", func(t *testing.T) *Peer { return GoSDK(t, false, nil) }},
		{"go-h2c", func(t *testing.T) *Peer { return GoSDK(t, true, nil) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.start(t)
			var protos http.Protocols
			protos.SetHTTP1(true)
			tr := p.Transport()
			tr.Protocols = &protos
			if tr.TLSClientConfig != nil {
				tr.TLSClientConfig.NextProtos = []string{"http/1.1"}
			}
			defer tr.CloseIdleConnections()
			resp, err := (&http.Client{Transport: tr, Timeout: 30 * time.Second}).Post(p.URL, "application/json", strings.NewReader("{}"))
			if err == nil {
				resp.Body.Close()
				t.Fatalf("an HTTP/1.1 client got %s over %s", resp.Status, resp.Proto)
			}
			t.Logf("HTTP/1.1 refused: %v", err)
		})
	}
}

func TestGoSDK(t *testing.T) {
	for _, c := range []struct {
		h2c  bool
		opts *mcp.StreamableHTTPOptions
	}{
		{false, nil}, {true, nil},
		{false, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
		{true, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
	} {
		name := fmt.Sprintf("h2c=%v/stateless=%v", c.h2c, c.opts != nil)
		t.Run(name, func(t *testing.T) {
			p := GoSDK(t, c.h2c, c.opts)
			s := newSession(t, p)
			s.initialize()
			if (s.id == "") != (c.opts != nil) {
				t.Errorf("session id %q", s.id)
			}
			for i, d := range peertest.Docs()[:2] {
				if got := s.read(d.URI); !bytes.Equal(got, peertest.Content(i)) {
					t.Errorf("%s: %d bytes, want %d", d.URI, len(got), d.Size)
				}
			}
		})
	}
}
