package record

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// bridge is `readbench record --stdio` in front of a Streamable HTTP
// upstream: each line the host writes is POSTed as it is, each message
// of the answer (a JSON body or an event stream) written to the host as
// one line, so a stdio host can be recorded against a remote server. The
// messages pass unchanged; the HTTP layer is the bridge's own, as a
// Streamable HTTP client's: the session id the server gives, the
// negotiated MCP-Protocol-Version after initialize, and for a 2026-07-28
// request the headers its _meta implies (MCP-Protocol-Version, Mcp-Method,
// Mcp-Name). A request the upstream answers without a JSON-RPC message
// (an HTTP error, a broken connection) is answered to the host with a
// JSON-RPC error -32603 saying so, so that the host never waits forever.
type bridge struct {
	o    Options
	b    *book
	rt   http.RoundTripper
	host io.Writer

	outMu sync.Mutex // one line to the host at a time
	mu    sync.Mutex
	sid   string // the server's Mcp-Session-Id
	ver   string // the version initialize negotiated
}

func (br *bridge) run(ctx context.Context, host io.Reader) error {
	var wg sync.WaitGroup // every request in flight: run waits for them all
	r := bufio.NewReaderSize(host, 64<<10)
	for ctx.Err() == nil {
		line, rerr := r.ReadBytes('\n')
		if body := bytes.TrimSpace(line); len(body) > 0 {
			msgs := messages(body)
			reads := br.b.requests(msgs, "", false, time.Now())
			wg.Add(1)
			go func() {
				defer wg.Done()
				br.post(ctx, body, msgs, reads)
			}()
		}
		if rerr != nil {
			break
		}
	}
	wg.Wait()
	br.mu.Lock()
	sid := br.sid
	br.mu.Unlock()
	if sid != "" { // end the session, as a client does
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if req, err := http.NewRequestWithContext(dctx, http.MethodDelete, br.o.Upstream.Address, nil); err == nil {
			br.setHeaders(req)
			req.Header.Set(protocol.HeaderSessionID, sid)
			if resp, err := br.rt.RoundTrip(req); err == nil {
				resp.Body.Close()
			}
		}
	}
	return nil
}

// post sends one line of the host's and relays its answer.
func (br *bridge) post(ctx context.Context, body []byte, msgs []message, reads []*pending) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, br.o.Upstream.Address, bytes.NewReader(body))
	if err != nil {
		br.fail(msgs, reads, err.Error())
		return
	}
	br.setHeaders(req)
	req.Header.Set("Content-Type", protocol.ContentTypeJSON)
	req.Header.Set("Accept", protocol.AcceptBoth)
	br.mu.Lock()
	if br.sid != "" {
		req.Header.Set(protocol.HeaderSessionID, br.sid)
	}
	if br.ver != "" {
		req.Header.Set(protocol.HeaderProtocolVersion, br.ver)
	}
	br.mu.Unlock()
	if len(msgs) == 1 && protocol.IsModern(msgs[0].Params.Meta.Version) {
		m := msgs[0]
		req.Header.Set(protocol.HeaderProtocolVersion, m.Params.Meta.Version)
		req.Header.Set(protocol.HeaderMethod, m.Method)
		if m.Method == protocol.MethodResourcesRead {
			req.Header.Set(protocol.HeaderName, protocol.EncodeHeaderValue(m.Params.URI))
		}
		for _, p := range reads {
			p.modern = true
		}
	}
	resp, err := br.rt.RoundTrip(req)
	if err != nil {
		br.fail(msgs, reads, "upstream: "+err.Error())
		return
	}
	defer resp.Body.Close()
	if sid := resp.Header.Get(protocol.HeaderSessionID); sid != "" {
		br.mu.Lock()
		br.sid = sid
		br.mu.Unlock()
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	split := newSplitter(ct == protocol.ContentTypeSSE, br.o.maxAnswer(), br.o.SpillDir)
	answered := map[string]bool{}
	emit := func(msg []byte, framing int64, over bool) {
		if over || len(bytes.TrimSpace(msg)) == 0 {
			if over {
				br.b.oversized(reads, framing, time.Now())
			}
			return
		}
		br.learn(msgs, msg, answered)
		br.line(msg)
		br.b.response(reads, msg, framing, time.Now())
	}
	buf := make([]byte, 32<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			split.feed(buf[:n], emit)
		}
		if rerr != nil {
			if rerr == io.EOF {
				split.end(emit)
			} else {
				split.end(func([]byte, int64, bool) {}) // its spool freed
			}
			break
		}
	}
	why := fmt.Sprintf("upstream answered HTTP %d without a JSON-RPC answer", resp.StatusCode)
	var unanswered []message
	for _, m := range msgs {
		if len(m.ID) > 0 && m.Method != "" && !answered[idKey(m.ID)] {
			unanswered = append(unanswered, m)
		}
	}
	if resp.StatusCode == http.StatusAccepted && len(unanswered) == 0 {
		return // notifications
	}
	br.fail(unanswered, reads, why)
}

// learn notes what an answer says that later requests need (the
// negotiated version), and which request it answered.
func (br *bridge) learn(msgs []message, msg []byte, answered map[string]bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 {
		return
	}
	id := idKey(m.ID)
	answered[id] = true
	for _, q := range msgs {
		if q.Method == protocol.MethodInitialize && idKey(q.ID) == id && m.Result.ProtocolVersion != "" {
			br.mu.Lock()
			br.ver = m.Result.ProtocolVersion
			br.mu.Unlock()
		}
	}
}

// fail answers the host's requests that got no answer with a JSON-RPC
// error, and ends their reads as transport failures.
func (br *bridge) fail(msgs []message, reads []*pending, why string) {
	for _, m := range msgs {
		if len(m.ID) == 0 || m.Method == "" {
			continue
		}
		e, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": protocol.CodeInternal, "message": "readbench record: " + why}})
		br.line(e)
	}
	br.b.unanswered(reads, false, stats.Transport, time.Now())
}

// line writes one message to the host as one line (two writes under one
// lock: a huge message is not copied to add its newline).
func (br *bridge) line(msg []byte) {
	br.outMu.Lock()
	defer br.outMu.Unlock()
	if _, err := br.host.Write(bytes.TrimSpace(msg)); err == nil {
		br.host.Write([]byte{'\n'}) // the host gone: its stdin's end ends run
	}
}

// setHeaders adds Options.Headers, ${VAR} expanded as every command's
// --header.
func (br *bridge) setHeaders(req *http.Request) {
	for k, v := range br.o.Headers {
		req.Header.Set(k, os.Expand(v, os.Getenv))
	}
}
