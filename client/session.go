package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Implementation names a piece of MCP software and its version, as the
// protocol's own Implementation type does: the serverInfo a server gives
// (results are compared across server versions, so it goes into every
// result) and the clientInfo readbench sends.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Session is one MCP session: a transport, the era and version in use,
// and the request ids. Open one with Connect. It is safe for concurrent
// use: a load run keeps many reads in flight on one session. The era
// fields are written by the handshake, before any read, and only read
// afterwards: renewing an expired session keeps them.
type Session struct {
	t       transport
	modern  bool
	version string
	server  Implementation
	simURIs bool           // the handshake advertised protocol.CapabilitySimURIs
	caps    Capabilities   // what the handshake declared
	client  Implementation // our clientInfo
	nextID  atomic.Int64
	meta    atomic.Pointer[sessionMeta] // the stateless era's _meta, built once per version (meta.go)
	uris    uriCache[escapedURI]        // the URIs read, escaped once (readcache.go)
	// traceState is the workload's tracestate header as a JSON string,
	// put in the _meta of every read that carries trace context (nil:
	// none; tracecontext.go).
	traceState []byte

	renewMu  sync.Mutex   // one renewal at a time when many reads meet the same expired session
	renewals atomic.Int64 // sessions re-initialized after the server forgot them

	subsMu sync.Mutex
	subs   *notices // its subscriptions' shared streams, from the first Subscribe (notices.go)
}

// probeTimeout bounds the era probe: a legacy stdio server may ignore a
// request it does not know instead of answering with an error.
const probeTimeout = 5 * time.Second

// handshake settles the era. protocolOpt is "auto" (or "") or a version to
// force. A transport that exists only in the handshake era (HTTP+SSE) is
// initialized straight away: the user chose it, so there is nothing to
// detect. Otherwise auto follows the specification's backward-compatibility
// rules (see detect).
func (s *Session) handshake(ctx context.Context, protocolOpt string) error {
	forced := protocolOpt != "" && protocolOpt != "auto"
	if lo, ok := s.t.(legacyOnlyTransport); ok {
		v := lo.legacyVersion()
		if forced {
			if protocol.IsModern(protocolOpt) {
				return fmt.Errorf("protocol %s is stateless and has no HTTP+SSE binding: the HTTP+SSE transport speaks only handshake-era versions (%s by default)", protocolOpt, v)
			}
			v = protocolOpt
		}
		return s.initialize(ctx, v)
	}
	if forced {
		if protocol.IsModern(protocolOpt) {
			return s.discover(ctx, protocolOpt)
		}
		return s.initialize(ctx, protocolOpt)
	}
	return s.detect(ctx)
}

// detect follows the specification's backward-compatibility rules (the
// versioning page and both transport bindings): send a modern request
// (server/discover) first. A result means a modern server. A recognised
// modern error means a modern server too, so the client must not fall back:
// UnsupportedProtocolVersion names the versions to retry with (a
// handshake-era one among them is spoken with initialize), a header
// mismatch or a missing capability is reported. Anything else (another
// JSON-RPC error, an HTTP 4xx with an empty or unrecognised body, a stdio
// probe that stays silent) means a legacy server: initialize.
func (s *Session) detect(ctx context.Context) error {
	err := s.discover(ctx, protocol.Latest)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var echo *echoError
	var over *tooLargeError
	if errors.As(err, &echo) || errors.Is(err, ErrUnauthorized) || errors.As(err, &over) {
		return err // no era would be answered either; an answer over the limit may still be arriving
	}
	var rpcErr *protocol.Error
	if errors.As(err, &rpcErr) {
		switch rpcErr.Code {
		case protocol.CodeUnsupportedProtocolVersion:
			return s.negotiate(ctx, rpcErr)
		case protocol.CodeHeaderMismatch, protocol.CodeMissingClientCapability:
			return fmt.Errorf("server/discover: a %s-era server refused the request, so readbench does not fall back to initialize: %w", protocol.Latest, err)
		}
		return s.initialize(ctx, protocol.LatestLegacy)
	}
	var se *StatusError
	if errors.Is(err, ErrTransport) && !errors.As(err, &se) {
		return err // the target cannot be reached at all
	}
	return s.initialize(ctx, protocol.LatestLegacy)
}

// negotiate answers an UnsupportedProtocolVersion error: retry with the
// newest version both sides speak (discover for a modern one, initialize
// for a handshake-era one); without a usable list, fall back to initialize
// as the SDKs do; with a list and nothing in common, give up and say so.
func (s *Session) negotiate(ctx context.Context, rpcErr *protocol.Error) error {
	supported, ok := supportedVersions(rpcErr.Data)
	v := pickVersion(supported)
	switch {
	case !ok || len(supported) == 0:
		return s.initialize(ctx, protocol.LatestLegacy)
	case v == "":
		return fmt.Errorf("no protocol version in common: the server speaks %v, readbench %v", supported, protocol.Versions())
	case protocol.IsModern(v):
		if err := s.discover(ctx, v); err != nil {
			return fmt.Errorf("server/discover with %s, which the server listed: %w", v, err)
		}
		return nil
	}
	return s.initialize(ctx, v)
}

// supportedVersions reads UnsupportedProtocolVersion's data {supported: [...]}.
func supportedVersions(data json.RawMessage) ([]string, bool) {
	var d struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(data, &d) != nil {
		return nil, false
	}
	return d.Supported, true
}

// pickVersion returns the newest version both readbench and the list speak.
func pickVersion(theirs []string) string {
	for _, ours := range protocol.Versions() {
		if slices.Contains(theirs, ours) {
			return ours
		}
	}
	return ""
}

func (s *Session) discover(ctx context.Context, version string) error {
	s.t.setEra(version, true)
	s.modern, s.version = true, version
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var res struct {
		SupportedVersions []string                   `json:"supportedVersions"`
		Capabilities      serverCapabilities         `json:"capabilities"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	if err := s.callSmall(pctx, protocol.MethodDiscover, s.withMeta(map[string]any{}), &res); err != nil {
		s.modern, s.version = false, ""
		return err
	}
	// A server may answer discover yet not speak this version (the Go SDK's
	// stateful server lists only handshake versions): it is then legacy.
	if !slices.Contains(res.SupportedVersions, version) {
		s.modern, s.version = false, ""
		data, err := json.Marshal(map[string]any{"supported": res.SupportedVersions, "requested": version})
		if err != nil {
			return fmt.Errorf("server/discover: %w", err)
		}
		return &protocol.Error{Code: protocol.CodeUnsupportedProtocolVersion, Message: "server/discover does not list " + version, Data: data}
	}
	if raw, ok := res.Meta[protocol.MetaServerInfo]; ok {
		_ = json.Unmarshal(raw, &s.server)
	}
	s.simURIs, s.caps = res.Capabilities.simURIs(), res.Capabilities.declared()
	return nil
}

// serverCapabilities is a server's capabilities object as sent. It is
// read leniently: capabilities readbench does not act on, however odd,
// never fail a handshake.
type serverCapabilities struct{ raw json.RawMessage }

// UnmarshalJSON keeps the capabilities as sent.
func (c *serverCapabilities) UnmarshalJSON(b []byte) error {
	c.raw = append(c.raw[:0], b...)
	return nil
}

// simURIs reports whether the capabilities advertise
// protocol.CapabilitySimURIs in experimental (any value but false or
// null).
func (c serverCapabilities) simURIs() bool {
	var caps struct {
		Experimental map[string]json.RawMessage `json:"experimental"`
	}
	if json.Unmarshal(c.raw, &caps) != nil {
		return false
	}
	v, ok := caps.Experimental[protocol.CapabilitySimURIs]
	return ok && string(v) != "false" && string(v) != "null"
}

// Capabilities are the server capabilities readbench acts on, as the
// handshake (initialize or server/discover) declared them: a check of a
// method the server never offered is not applicable, not a failure.
type Capabilities struct {
	// Known: the handshake carried a capabilities object. Without one
	// nothing is known, and every other field is false.
	Known bool
	// Resources: resources/list, resources/read and
	// resources/templates/list are offered; Subscribe and ListChanged are
	// its flags.
	Resources, Subscribe, ListChanged bool
	// Tools: tools/list and tools/call are offered.
	Tools bool
	// Completions: completion/complete is offered (check asks it for a
	// value of a listed template's variable).
	Completions bool
}

// declared reads the capabilities readbench acts on: a capability is
// declared by its key with an object (or any value but false or null).
func (c serverCapabilities) declared() Capabilities {
	var caps map[string]json.RawMessage
	if json.Unmarshal(c.raw, &caps) != nil || caps == nil {
		return Capabilities{}
	}
	on := func(v json.RawMessage, ok bool) bool { return ok && string(v) != "false" && string(v) != "null" }
	out := Capabilities{Known: true}
	res, ok := caps["resources"]
	out.Resources = on(res, ok)
	t, ok := caps["tools"]
	out.Tools = on(t, ok)
	cm, ok := caps["completions"]
	out.Completions = on(cm, ok)
	var flags struct {
		Subscribe   bool `json:"subscribe"`
		ListChanged bool `json:"listChanged"`
	}
	if out.Resources && json.Unmarshal(res, &flags) == nil {
		out.Subscribe, out.ListChanged = flags.Subscribe, flags.ListChanged
	}
	return out
}

// initialize runs the handshake-era lifecycle: initialize, then
// notifications/initialized, and records what the server chose.
func (s *Session) initialize(ctx context.Context, version string) error {
	s.t.setEra(version, false)
	s.modern, s.version = false, version
	chosen, server, caps, err := s.exchangeInitialize(ctx, version)
	if err != nil {
		return err
	}
	s.version, s.server, s.simURIs, s.caps = chosen, server, caps.simURIs(), caps.declared()
	s.t.setEra(s.version, false)
	return nil
}

// exchangeInitialize sends initialize offering version and then
// notifications/initialized. It changes nothing in s, so renewing an
// expired session while other reads run is not a data race.
func (s *Session) exchangeInitialize(ctx context.Context, version string) (chosen string, server Implementation, caps serverCapabilities, err error) {
	params := map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{},
		"clientInfo":      s.client,
	}
	var res struct {
		ProtocolVersion string             `json:"protocolVersion"`
		ServerInfo      Implementation     `json:"serverInfo"`
		Capabilities    serverCapabilities `json:"capabilities"`
	}
	if err := s.callSmall(ctx, protocol.MethodInitialize, params, &res); err != nil {
		var se *StatusError
		if errors.As(err, &se) && se.method == protocol.MethodInitialize {
			return "", Implementation{}, caps, err // it says "initialize:" already
		}
		return "", Implementation{}, caps, fmt.Errorf("initialize: %w", err)
	}
	if !protocol.IsKnownVersion(res.ProtocolVersion) || protocol.IsModern(res.ProtocolVersion) {
		return "", Implementation{}, caps, fmt.Errorf("initialize: server chose protocol version %q, which readbench does not speak in the handshake era", res.ProtocolVersion)
	}
	body, err := protocol.AppendRequest(nil, nil, protocol.MethodInitialized, nil)
	if err != nil {
		return "", Implementation{}, caps, err
	}
	if err := s.t.notify(ctx, Request{method: protocol.MethodInitialized, body: body}); err != nil {
		return "", Implementation{}, caps, fmt.Errorf("notifications/initialized: %w", err)
	}
	return res.ProtocolVersion, res.ServerInfo, res.Capabilities, nil
}

// renew re-initializes after the server forgot the session id expired
// carried, as the Streamable HTTP transport says a client must. Many reads
// in flight meet the same expiry; the first renews, the others find a new
// id in place and only retry.
func (s *Session) renew(ctx context.Context, expired *sessionExpiredError) error {
	st, ok := s.t.(sessionIDTransport)
	if !ok {
		return expired
	}
	s.renewMu.Lock()
	defer s.renewMu.Unlock()
	if st.liveSessionID() != expired.sessionID {
		return nil // renewed by another read meanwhile
	}
	chosen, _, _, err := s.exchangeInitialize(ctx, s.version)
	if err != nil {
		return fmt.Errorf("renewing the expired session: %w", err)
	}
	if chosen != s.version {
		return fmt.Errorf("renewing the expired session: the server now chose protocol version %s instead of %s", chosen, s.version)
	}
	s.renewals.Add(1)
	return nil
}

// callSmall sends a request whose answer is small and decodes its result
// into out; a JSON-RPC error comes back as *protocol.Error.
func (s *Session) callSmall(ctx context.Context, method string, params any, out any) error {
	a, err := s.send(ctx, method, "", params)
	if err != nil {
		return err
	}
	m, err := protocol.Decode(a.Body)
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

// send encodes and sends one request with a fresh id. When the server
// says the session expired, the session is renewed and the request sent
// once more with a new id: the caller sees one answer (or one error), so
// nothing is counted twice.
func (s *Session) send(ctx context.Context, method, name string, params any) (*Response, error) {
	return s.sendRead(ctx, method, name, params, nil)
}

// sendRead is send for a request whose answer read says how to classify
// as it streams in (nil: keep it whole).
func (s *Session) sendRead(ctx context.Context, method, name string, params any, read *readSpec) (*Response, error) {
	a, err := s.sendOnce(ctx, method, name, params, read)
	if err == nil || method == protocol.MethodInitialize {
		return a, err
	}
	var expired *sessionExpiredError // declared here: errors.As puts it on the heap
	if !errors.As(err, &expired) {
		return a, err
	}
	var at time.Time // a read's deadline bounds its session's renewal too
	var cause error
	if read != nil {
		at, cause = read.deadline, read.cause
	}
	_, rerr := withinDeadline(ctx, at, cause, func(ctx context.Context) (struct{}, error) { return struct{}{}, s.renew(ctx, expired) })
	if rerr != nil {
		var past *deadlineError
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.As(rerr, &past):
			return nil, rerr
		}
		return nil, fmt.Errorf("%w (%w)", err, rerr)
	}
	return s.sendOnce(ctx, method, name, params, read)
}

// sendOnce encodes and sends one request with a fresh id. A whole read
// (method resources/read with read set and params nil) is encoded by
// appendReadRequest from read.uri.
func (s *Session) sendOnce(ctx context.Context, method, name string, params any, read *readSpec) (*Response, error) {
	id := s.nextID.Add(1)
	var body []byte
	if method == protocol.MethodResourcesRead && read != nil && params == nil {
		body = s.appendReadRequest(nil, id, read.uri, read.trace)
	} else {
		var err error
		if body, err = protocol.AppendRequest(nil, protocol.IntID(id), method, params); err != nil {
			return nil, err
		}
	}
	req := Request{ID: id, method: method, name: name, body: body, read: read}
	if read != nil {
		req.trace = read.trace
	}
	return s.t.call(ctx, req)
}

// Close ends the session: its subscriptions' streams are closed (they end
// EndClosed, without unsubscribing: the session goes), a stdio child is
// shut down, an HTTP session deleted, an HTTP+SSE stream closed.
func (s *Session) Close() error {
	s.closeSubscriptions()
	return s.t.close()
}
