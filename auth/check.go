package auth

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// The small unauthenticated MCP exchange login makes to learn what the
// server asks for (its refusal and challenge), speaking just enough
// Streamable HTTP for that. The proof that a token gets in is a real
// client session, made by the caller (LoginConfig.Check): auth never
// imports the client package.

// Refusal is a server's 401 or 403 to a request, with its challenge.
type Refusal struct {
	Status    int
	Challenge Challenge
	Header    string // the raw WWW-Authenticate value
}

func (r *Refusal) Error() string {
	s := fmt.Sprintf("the server refused the request (%d)", r.Status)
	if r.Challenge.Error != "" {
		s += ": " + r.Challenge.Error
	}
	return s
}

// checkProtocol is the version the probe's initialize asks for.
const checkProtocol = "2025-11-25"

// mcpCall is one JSON-RPC exchange over Streamable HTTP.
type mcpCall struct {
	hc      *http.Client
	target  string
	session string
}

// post sends one JSON-RPC message; for a request it returns the answer's
// result or error object. A 401 or 403 is a *Refusal.
func (m *mcpCall) post(ctx context.Context, id int, method string, params any) (json.RawMessage, *rpcError, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	if id > 0 {
		msg["id"] = id
	}
	body, _ := json.Marshal(msg)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.target, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if m.session != "" {
		req.Header.Set("Mcp-Session-Id", m.session)
	}
	res, err := m.hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", method, err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
		h := res.Header.Get("WWW-Authenticate")
		ch, _ := ParseChallenge(h) // a malformed challenge still refused
		return nil, nil, &Refusal{Status: res.StatusCode, Challenge: ch, Header: h}
	}
	if s := res.Header.Get("Mcp-Session-Id"); s != "" {
		m.session = s
	}
	if id == 0 {
		return nil, nil, nil
	}
	var ans struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	data, err := readAnswer(res)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", method, err)
	}
	if err := json.Unmarshal(data, &ans); err != nil || (ans.Result == nil && ans.Error == nil) {
		return nil, nil, fmt.Errorf("%s: the server answered %d with no JSON-RPC answer", method, res.StatusCode)
	}
	return ans.Result, ans.Error, nil
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// readAnswer returns the JSON-RPC answer of a response: its JSON body, or
// the first data event that carries an id of an event stream.
func readAnswer(res *http.Response) ([]byte, error) {
	body := io.LimitReader(res.Body, 1<<20)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return io.ReadAll(body)
	}
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "data:"); ok {
			data = append(data, strings.TrimPrefix(d, " ")...)
			continue
		}
		if line == "" && len(data) > 0 {
			if bytes.Contains(data, []byte(`"id"`)) {
				return data, nil
			}
			data = nil
		}
	}
	if len(data) > 0 {
		return data, nil
	}
	return nil, fmt.Errorf("the event stream ended with no answer: %v", sc.Err())
}

func initializeParams() map[string]any {
	return map[string]any{
		"protocolVersion": checkProtocol,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "readbench", "version": "login"},
	}
}

// probeAndDiscover learns what target asks for (probe) and discovers its
// authorization server from that challenge (Discover): what every grant
// starts with.
func probeAndDiscover(ctx context.Context, hc *http.Client, target string) (Challenge, *Metadata, error) {
	var ch Challenge
	refusal, err := probe(ctx, hc, target)
	if err != nil {
		return ch, nil, err
	}
	if refusal != nil {
		ch = refusal.Challenge
	}
	md, err := Discover(ctx, hc, target, ch)
	return ch, md, err
}

// probe makes the MCP exchange unauthenticated to learn what the server
// asks for: its refusal of initialize, or, from a server that lets
// initialize through, of the ping after it; nil when it refuses neither.
func probe(ctx context.Context, hc *http.Client, target string) (*Refusal, error) {
	m := &mcpCall{hc: hc, target: target}
	var r *Refusal
	_, _, err := m.post(ctx, 1, "initialize", initializeParams())
	if errors.As(err, &r) {
		return r, nil
	}
	if err != nil {
		return nil, nil // not an answer we can learn from: discovery goes by the well-known URLs
	}
	if _, _, err := m.post(ctx, 0, "notifications/initialized", nil); errors.As(err, &r) {
		return r, nil
	}
	if _, _, err := m.post(ctx, 2, "ping", nil); errors.As(err, &r) {
		return r, nil
	}
	return nil, nil
}
