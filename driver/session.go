package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/protocol"
)

// ServerInfo is what a server says about itself; results are compared
// across server versions, so it goes into every result.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// session is one MCP session: a transport, the era and version in use,
// and the request ids.
type session struct {
	t       transport
	modern  bool
	version string
	server  ServerInfo
	client  ServerInfo // our clientInfo
	nextID  atomic.Int64
}

// probeTimeout bounds the era probe: a legacy stdio server may ignore a
// request it does not know instead of answering with an error.
const probeTimeout = 5 * time.Second

// handshake settles the era. protocolOpt is "auto" (or "") or a version to
// force. Auto follows the specification's backward-compatibility rules: try
// a modern request (server/discover); a result means a modern server; a
// recognised modern error may name a supported version to retry with; any
// other error, an empty or unrecognised 400 body, or silence means a legacy
// server, which gets initialize.
func (s *session) handshake(ctx context.Context, protocolOpt string) error {
	if protocolOpt != "" && protocolOpt != "auto" {
		if protocol.IsModern(protocolOpt) {
			return s.discover(ctx, protocolOpt)
		}
		return s.initialize(ctx, protocolOpt)
	}
	err := s.discover(ctx, protocol.Latest)
	if err == nil {
		return nil
	}
	var rpcErr *protocol.Error
	if errors.As(err, &rpcErr) && rpcErr.Code == protocol.CodeUnsupportedProtocolVersion {
		if v := pickModern(rpcErr.Data); v != "" {
			if err := s.discover(ctx, v); err == nil {
				return nil
			}
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var se *statusError
	if errors.Is(err, errTransport) && !errors.As(err, &se) {
		return err // the target cannot be reached at all
	}
	return s.initialize(ctx, protocol.LatestLegacy)
}

// pickModern reads -32022's data {supported: [...]} and returns the newest
// modern version both sides speak.
func pickModern(data json.RawMessage) string {
	var d struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(data, &d) != nil {
		return ""
	}
	for _, ours := range protocol.Versions() {
		for _, theirs := range d.Supported {
			if ours == theirs && protocol.IsModern(ours) {
				return ours
			}
		}
	}
	return ""
}

func (s *session) discover(ctx context.Context, version string) error {
	s.t.setEra(version, true)
	s.modern, s.version = true, version
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var res struct {
		SupportedVersions []string                   `json:"supportedVersions"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	if err := s.callSmall(pctx, protocol.MethodDiscover, s.withMeta(map[string]any{}), &res); err != nil {
		s.modern, s.version = false, ""
		return err
	}
	// A server may answer discover yet not speak this version (the Go SDK's
	// stateful server lists only handshake versions): it is then legacy.
	if !contains(res.SupportedVersions, version) {
		s.modern, s.version = false, ""
		return &protocol.Error{Code: protocol.CodeUnsupportedProtocolVersion, Message: "server/discover does not list " + version,
			Data: mustJSON(map[string]any{"supported": res.SupportedVersions, "requested": version})}
	}
	if raw, ok := res.Meta[protocol.MetaServerInfo]; ok {
		_ = json.Unmarshal(raw, &s.server)
	}
	return nil
}

func (s *session) initialize(ctx context.Context, version string) error {
	s.t.setEra(version, false)
	s.modern, s.version = false, version
	params := map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{},
		"clientInfo":      s.client,
	}
	var res struct {
		ProtocolVersion string     `json:"protocolVersion"`
		ServerInfo      ServerInfo `json:"serverInfo"`
	}
	if err := s.callSmall(ctx, protocol.MethodInitialize, params, &res); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if !protocol.IsKnownVersion(res.ProtocolVersion) || protocol.IsModern(res.ProtocolVersion) {
		return fmt.Errorf("initialize: server chose protocol version %q, which readbench does not speak in the handshake era", res.ProtocolVersion)
	}
	s.version, s.server = res.ProtocolVersion, res.ServerInfo
	s.t.setEra(s.version, false)
	body, err := protocol.AppendRequest(nil, nil, protocol.MethodInitialized, nil)
	if err != nil {
		return err
	}
	if err := s.t.notify(ctx, request{method: protocol.MethodInitialized, body: body}); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// withMeta adds the stateless era's per-request _meta to params.
func (s *session) withMeta(params map[string]any) map[string]any {
	if s.modern {
		params["_meta"] = map[string]any{
			protocol.MetaProtocolVersion:    s.version,
			protocol.MetaClientCapabilities: map[string]any{},
			protocol.MetaClientInfo:         s.client,
		}
	}
	return params
}

// callSmall sends a request whose answer is small and decodes its result
// into out; a JSON-RPC error comes back as *protocol.Error.
func (s *session) callSmall(ctx context.Context, method string, params any, out any) error {
	a, err := s.send(ctx, method, "", params)
	if err != nil {
		return err
	}
	m, err := protocol.Decode(a.body)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if m.Error != nil {
		return m.Error
	}
	if err := json.Unmarshal(m.Result, out); err != nil {
		return fmt.Errorf("%s: result: %w", method, err)
	}
	return nil
}

// send encodes and sends one request with a fresh id.
func (s *session) send(ctx context.Context, method, name string, params any) (*answer, error) {
	id := s.nextID.Add(1)
	body, err := protocol.AppendRequest(nil, protocol.IntID(id), method, params)
	if err != nil {
		return nil, err
	}
	return s.t.call(ctx, request{id: id, method: method, name: name, body: body})
}

// read issues one resources/read and classifies what came back.
func (s *session) read(ctx context.Context, uri string) (*answer, error) {
	return s.send(ctx, protocol.MethodResourcesRead, uri, s.withMeta(map[string]any{"uri": uri}))
}

func (s *session) close() error { return s.t.close() }

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
