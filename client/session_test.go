package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// scriptTransport answers the session's requests from a script, so the
// era detection can be tested against every kind of server the
// specification describes, including ones no library here implements.
type scriptTransport struct {
	// answer returns the result or error object for a request (as JSON:
	// {"result":...} or {"error":...}), a Go error, or nil for silence.
	answer func(method, version string, n int) (obj string, err error)

	mu    sync.Mutex
	calls []string // "method version" in order
}

func (t *scriptTransport) call(ctx context.Context, req Request) (*Response, error) {
	var m struct {
		Params struct {
			ProtocolVersion string                     `json:"protocolVersion"`
			Meta            map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal(req.body, &m)
	v := m.Params.ProtocolVersion
	if raw, ok := m.Params.Meta[protocol.MetaProtocolVersion]; ok {
		_ = json.Unmarshal(raw, &v)
	}
	t.mu.Lock()
	t.calls = append(t.calls, req.method+" "+v)
	n := 0
	for _, c := range t.calls {
		if strings.HasPrefix(c, req.method+" ") {
			n++
		}
	}
	t.mu.Unlock()
	obj, err := t.answer(req.method, v, n)
	if err != nil {
		return nil, err
	}
	if obj == "" {
		<-ctx.Done() // a server that ignores what it does not know
		return nil, ctx.Err()
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, req.ID, obj)
	return &Response{Body: []byte(body), WireBytes: int64(len(body))}, nil
}

func (t *scriptTransport) notify(_ context.Context, req Request) error {
	t.mu.Lock()
	t.calls = append(t.calls, req.method)
	t.mu.Unlock()
	return nil
}

func (t *scriptTransport) setEra(string, bool) {}
func (t *scriptTransport) close() error        { return nil }

// legacyScript is a scriptTransport that exists only in the handshake era.
type legacyScript struct{ *scriptTransport }

func (legacyScript) legacyVersion() string { return protocol.V20241105 }

// legacyServer answers initialize with the version asked and everything
// else with err (nil: method not found).
func legacyServer(discover func(n int) (string, error)) func(method, version string, n int) (string, error) {
	return func(method, version string, n int) (string, error) {
		switch method {
		case protocol.MethodInitialize:
			return fmt.Sprintf(`"result":{"protocolVersion":%q,"capabilities":{},"serverInfo":{"name":"legacy","version":"1"}}`, version), nil
		case protocol.MethodDiscover:
			return discover(n)
		}
		return `"error":{"code":-32601,"message":"no"}`, nil
	}
}

func rpcError(code int, data string) func(int) (string, error) {
	return func(int) (string, error) {
		if data == "" {
			return fmt.Sprintf(`"error":{"code":%d,"message":"x"}`, code), nil
		}
		return fmt.Sprintf(`"error":{"code":%d,"message":"x","data":%s}`, code, data), nil
	}
}

const discovered = `"result":{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern","version":"2"}}}`

func TestHandshakeFollowsBackwardCompatibilityRules(t *testing.T) {
	initialized := protocol.MethodInitialized
	cases := []struct {
		why         string
		proto       string
		legacyOnly  bool
		discover    func(n int) (string, error)
		wantCalls   []string
		wantVersion string // "" when the handshake must fail
		wantErr     string
	}{
		{"a discover result means a modern server", "auto", false, func(int) (string, error) { return discovered, nil },
			[]string{"server/discover 2026-07-28"}, protocol.V20260728, ""},
		{"UnsupportedProtocolVersion naming a modern version: retry discover with it, never initialize", "auto", false,
			func(n int) (string, error) {
				if n == 1 {
					return rpcError(-32022, `{"supported":["2026-07-28"],"requested":"2026-07-28"}`)(n)
				}
				return discovered, nil
			},
			[]string{"server/discover 2026-07-28", "server/discover 2026-07-28"}, protocol.V20260728, ""},
		{"UnsupportedProtocolVersion naming only handshake versions: initialize with the newest in common", "auto", false,
			rpcError(-32022, `{"supported":["2025-06-18","2025-03-26"],"requested":"2026-07-28"}`),
			[]string{"server/discover 2026-07-28", "initialize 2025-06-18", initialized}, protocol.V20250618, ""},
		{"UnsupportedProtocolVersion with nothing in common: say so", "auto", false,
			rpcError(-32022, `{"supported":["1999-01-01"]}`),
			[]string{"server/discover 2026-07-28"}, "", "no protocol version in common"},
		{"UnsupportedProtocolVersion without data: initialize, as the SDKs do", "auto", false,
			rpcError(-32022, ""), []string{"server/discover 2026-07-28", "initialize 2025-11-25", initialized}, protocol.V20251125, ""},
		{"a header mismatch is a modern error: no fallback", "auto", false, rpcError(-32020, ""),
			[]string{"server/discover 2026-07-28"}, "", "does not fall back"},
		{"a missing client capability is a modern error: no fallback", "auto", false, rpcError(-32021, ""),
			[]string{"server/discover 2026-07-28"}, "", "does not fall back"},
		{"method not found from a legacy server: initialize", "auto", false, rpcError(-32601, ""),
			[]string{"server/discover 2026-07-28", "initialize 2025-11-25", initialized}, protocol.V20251125, ""},
		{"HTTP 400 with an empty body: legacy", "auto", false,
			func(int) (string, error) { return "", &StatusError{status: 400, method: "server/discover"} },
			[]string{"server/discover 2026-07-28", "initialize 2025-11-25", initialized}, protocol.V20251125, ""},
		{"HTTP 404 with a plain-text body: legacy", "auto", false,
			func(int) (string, error) {
				return "", &StatusError{status: 404, method: "server/discover", body: "404 page not found"}
			},
			[]string{"server/discover 2026-07-28", "initialize 2025-11-25", initialized}, protocol.V20251125, ""},
		{"a discover result without our version (a stateful dual-era server): initialize", "auto", false,
			func(int) (string, error) { return `"result":{"supportedVersions":["2025-11-25","2024-11-05"]}`, nil },
			[]string{"server/discover 2026-07-28", "initialize 2025-11-25", initialized}, protocol.V20251125, ""},
		{"an unreachable target is an error, not a legacy server", "auto", false,
			func(int) (string, error) { return "", transportErr("connection refused") },
			[]string{"server/discover 2026-07-28"}, "", "connection refused"},
		{"a silent stdio server (probe timeout): initialize", "auto", false,
			func(int) (string, error) { return "", nil },
			[]string{"server/discover 2026-07-28", "initialize 2025-11-25", initialized}, protocol.V20251125, ""},
		{"forced modern: discover only", protocol.V20260728, false, func(int) (string, error) { return discovered, nil },
			[]string{"server/discover 2026-07-28"}, protocol.V20260728, ""},
		{"forced legacy: initialize only", protocol.V20250326, false, nil,
			[]string{"initialize 2025-03-26", initialized}, protocol.V20250326, ""},
		{"HTTP+SSE, auto: 2024-11-05 without a probe", "auto", true, nil,
			[]string{"initialize 2024-11-05", initialized}, protocol.V20241105, ""},
		{"HTTP+SSE, a forced handshake version", protocol.V20250618, true, nil,
			[]string{"initialize 2025-06-18", initialized}, protocol.V20250618, ""},
		{"HTTP+SSE, a forced modern version is refused", protocol.V20260728, true, nil, nil, "", "HTTP+SSE"},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			t.Parallel() // the silent case waits for the probe timeout
			st := &scriptTransport{answer: legacyServer(c.discover)}
			var tr transport = st
			if c.legacyOnly {
				tr = legacyScript{st}
			}
			s := &Session{t: tr, client: Implementation{Name: "readbench-test", Version: "0"}}
			err := s.handshake(context.Background(), c.proto)
			if c.wantVersion == "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("err = %v, want one containing %q", err, c.wantErr)
				}
			} else if err != nil || s.version != c.wantVersion || s.modern != protocol.IsModern(c.wantVersion) {
				t.Errorf("err %v, version %q modern %v; want %q", err, s.version, s.modern, c.wantVersion)
			}
			if fmt.Sprint(st.calls) != fmt.Sprint(c.wantCalls) {
				t.Errorf("calls %q, want %q", st.calls, c.wantCalls)
			}
		})
	}
}

func TestHandshakeRecordsServerInfo(t *testing.T) {
	for _, c := range []struct {
		discover func(int) (string, error)
		want     string
	}{
		{func(int) (string, error) { return discovered, nil }, "modern 2"},
		{rpcError(-32601, ""), "legacy 1"},
	} {
		s := &Session{t: &scriptTransport{answer: legacyServer(c.discover)}}
		if err := s.handshake(context.Background(), "auto"); err != nil {
			t.Fatal(err)
		}
		if got := s.server.Name + " " + s.server.Version; got != c.want {
			t.Errorf("server %q, want %q", got, c.want)
		}
	}
}

func TestSessionDoesNotRenewWithoutSessionIDs(t *testing.T) {
	// A transport without session ids (stdio) cannot renew: the expiry
	// error stands, once.
	calls := 0
	st := &scriptTransport{answer: func(method, _ string, _ int) (string, error) {
		calls++
		return "", &sessionExpiredError{sessionID: "x", method: method, status: 404}
	}}
	s := &Session{t: st}
	_, err := s.testRead(context.Background(), "docs://a")
	var exp *sessionExpiredError
	if !errors.As(err, &exp) || !errors.Is(err, ErrTransport) || calls != 1 {
		t.Errorf("err = %v after %d calls", err, calls)
	}
}
