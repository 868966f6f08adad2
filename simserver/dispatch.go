package simserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/readbench/readbench/protocol"
)

// params holds the request parameters of every method the server knows,
// decoded once.
type params struct {
	Meta            *requestMeta    `json:"_meta"`
	URI             *string         `json:"uri"`
	Cursor          string          `json:"cursor"`
	RequestState    string          `json:"requestState"`
	ProtocolVersion string          `json:"protocolVersion"`
	RequestID       json.RawMessage `json:"requestId"`
	Name            string          `json:"name"`
	Arguments       json.RawMessage `json:"arguments"`
	Notifications   json.RawMessage `json:"notifications"` // subscriptions/listen's (parseListen)
}

// requestMeta is the part of a request's _meta the server reads: a struct,
// not a map, so that decoding it allocates nothing for the keys it skips.
// The tag names must equal protocol.MetaProtocolVersion,
// protocol.MetaClientCapabilities, protocol.MetaTraceParent and
// protocol.MetaTraceState (TestMetaTags checks). The trace context is kept
// raw: only a read's is looked at (traces.go).
type requestMeta struct {
	ProtocolVersion    json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	TraceParent        json.RawMessage `json:"traceparent"`
	TraceState         json.RawMessage `json:"tracestate"`
}

// call is one request as a transport hands it to the server, its era
// resolved.
type call struct {
	id          json.RawMessage
	method      string
	p           params
	metaVersion string           // _meta protocolVersion, "" when absent
	version     string           // the protocol version this request is served in
	modern      bool             // 2026-07-28 era: _meta, resultType, serverInfo in results
	hdr         headerTrace      // HTTP: the trace context headers
	host        subscriptionHost // where a legacy subscription lives: the stdio connection, the HTTP session; nil without one

	// A read's parsed URI, set by prepare.
	prepared bool
	spec     *Spec
	specErr  *protocol.Error
}

// prepare parses a read's URI ahead of serve, through the server's cache
// of parsed URIs. The stdio loop calls it before handing the read to its
// own goroutine, so the parsing runs on the loop's already grown stack and
// the request goroutine stays shallow (its stack growth was a tenth of the
// cost of a small read).
func (c *call) prepare(specs *specCache) {
	if c.method == protocol.MethodResourcesRead && !c.prepared {
		c.prepared = true
		c.spec, c.specErr = resolve(c, specs)
	}
}

// answer is what the server says to one request: the JSON-RPC response in
// pieces (so a cached multi-megabyte contents array is written as is, never
// copied), or nothing at all for a cancelled read.
type answer struct {
	parts       [][]byte
	code        int    // the error code of an error response; 0 for a result
	sse         bool   // HTTP: the read asked for an SSE answer (sse=true)
	read        bool   // a resources/read answer: counts toward Stats and CrashAfter
	late        bool   // answered although cancelled (honor_cancel=false)
	honours     bool   // a read that stops on cancellation: not written once cancelled
	initialized string // initialize: the version negotiated
	wire        Wire   // a read's framing or matching violation (wire=)
}

// size is the byte length of the response.
func (a *answer) size() int {
	n := 0
	for _, p := range a.parts {
		n += len(p)
	}
	return n
}

// decodeMessage decodes one JSON-RPC message and, in the same pass when
// they have the usual shape, its params (protocol.DecodeVisit): pre is then
// what newCall takes instead of decoding msg.Params again, else nil. The
// error is the message's, as protocol.Decode words it.
func decodeMessage(b []byte) (msg *protocol.Message, pre *paramsDecoder, err error) {
	d := &paramsDecoder{}
	msg, visited, err := protocol.DecodeVisit(b, d.visit)
	if err != nil || !visited {
		return msg, nil, err
	}
	return msg, d, nil
}

// newCall decodes a request's params, unless pre (from decodeMessage, or
// nil) holds them already. A params value that is not an object (or a
// _meta protocolVersion that is not a string) is invalid params.
func newCall(msg *protocol.Message, pre *paramsDecoder) (*call, *protocol.Error) {
	c := &call{id: msg.ID, method: msg.Method}
	if pre != nil {
		c.p = pre.p
	} else if len(msg.Params) > 0 && string(msg.Params) != "null" {
		if err := json.Unmarshal(msg.Params, &c.p); err != nil {
			return c, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: "+err.Error(), nil)
		}
	}
	if m := c.p.Meta; m != nil && m.ProtocolVersion != nil {
		if v, ok := knownVersion(m.ProtocolVersion); ok {
			c.metaVersion = v // the usual case, without an allocation
		} else if v, ok := protocol.Unquote(m.ProtocolVersion); ok {
			c.metaVersion = v // without encoding/json's reflection
		} else if err := json.Unmarshal(m.ProtocolVersion, &c.metaVersion); err != nil {
			c.metaVersion = ""
		}
		if c.metaVersion == "" {
			return c, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: _meta "+protocol.MetaProtocolVersion+" must be a version string", nil)
		}
	}
	return c, nil
}

// resolveEra decides the era of a call. A _meta protocolVersion selects it
// (a version the server does not speak is -32022 with the supported list, a
// 2026-07-28 request must declare its client capabilities); without one the
// call is served as legacy in fallback, the connection's negotiated version,
// even on a connection that never initialized (lenient, like real servers).
func (c *call) resolveEra(fallback string) *protocol.Error {
	switch {
	case c.metaVersion == "":
		c.version = fallback
	case !protocol.IsKnownVersion(c.metaVersion):
		return unsupportedVersion(c.metaVersion)
	default:
		c.version = c.metaVersion
	}
	c.modern = protocol.IsModern(c.version)
	if c.modern {
		if c.p.Meta == nil || !isObject(c.p.Meta.ClientCapabilities) {
			return protocol.NewError(protocol.CodeInvalidParams, "Invalid params: _meta "+protocol.MetaClientCapabilities+" must be an object", nil)
		}
	}
	return nil
}

// knownVersion is the version the raw JSON string names, when it is one
// of protocol.Versions spelled without escapes.
func knownVersion(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	for _, v := range protocol.Versions() {
		if string(raw[1:len(raw)-1]) == v {
			return v, true
		}
	}
	return "", false
}

// isObject reports whether raw, a value from a decoded (so valid) JSON
// document, is an object: what decoding it into a map would say, without
// building the map.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

func unsupportedVersion(requested string) *protocol.Error {
	return protocol.NewError(protocol.CodeUnsupportedProtocolVersion,
		fmt.Sprintf("Unsupported protocol version %q", requested),
		map[string]any{"supported": protocol.Versions(), "requested": requested})
}

// serve answers one request. ctx ends with the request (cancellation);
// base ends with the connection, and bounds reads that ignore cancellation.
func (s *Server) serve(ctx, base context.Context, c *call) answer {
	if c.modern && (c.method == protocol.MethodInitialize || c.method == protocol.MethodPing) {
		// 2026-07-28 removed the handshake and ping: a request of that era
		// for them is an unknown method (404 over HTTP).
		return s.fail(c.id, protocol.NewError(protocol.CodeMethodNotFound, "Method not found in "+protocol.V20260728+": "+c.method, nil))
	}
	switch c.method {
	case protocol.MethodInitialize:
		return s.initialize(c)
	case protocol.MethodDiscover:
		return s.discover(c)
	case protocol.MethodPing:
		return s.result(c, []byte("{}"))
	case protocol.MethodResourcesRead:
		return s.read(ctx, base, c)
	case protocol.MethodResourcesList:
		return s.listResources(c)
	case protocol.MethodResourceTemplates:
		return s.listTemplates(c)
	case protocol.MethodToolsList:
		return s.listTools(c)
	case protocol.MethodToolsCall:
		return s.callTool(ctx, base, c)
	case protocol.MethodSubscribe, protocol.MethodUnsubscribe:
		return s.subscribe(c)
	case protocol.MethodSubscriptionsListen:
		// A 2026-07-28 listen is the transport's (serveListenHTTP,
		// startListen): one reaching here is of a legacy era.
		return s.fail(c.id, protocol.NewError(protocol.CodeMethodNotFound, "Method not found: "+c.method+" is "+protocol.V20260728+"'s (a legacy client subscribes with "+protocol.MethodSubscribe+")", nil))
	}
	return s.fail(c.id, protocol.NewError(protocol.CodeMethodNotFound, "Method not found: "+c.method, nil))
}

// initialize negotiates a handshake-era version: the client's when the
// server speaks it, else the newest legacy version.
func (s *Server) initialize(c *call) answer {
	v := c.p.ProtocolVersion
	if !protocol.IsKnownVersion(v) || protocol.IsModern(v) {
		v = protocol.LatestLegacy
	}
	body := mustMarshal(map[string]any{
		"protocolVersion": v,
		"capabilities":    capabilities(c.host != nil || s.opts.Stateful),
		"serverInfo":      s.serverInfo(),
		"instructions":    "readbench simulated server: sim:///NAME?mime=TYPE&size=BYTES&delay=DIST describes the resource it names.",
	})
	a := answer{parts: [][]byte{protocol.AppendResult(nil, c.id, body)}, initialized: v}
	return a
}

// discover answers server/discover (2026-07-28), also to a request without
// _meta: a client probing the era should learn what the server speaks.
func (s *Server) discover(c *call) answer {
	body := mustMarshal(map[string]any{
		"supportedVersions": protocol.Versions(),
		"capabilities":      capabilities(true),
		"ttlMs":             0,
		"cacheScope":        "public",
	})
	return answer{parts: [][]byte{protocol.AppendResult(nil, c.id, s.modernResult(body, protocol.ResultComplete))}}
}

// capabilities are what the server offers: resources, tools, and the
// experimental protocol.CapabilitySimURIs, by which a client learns that
// any sim: URI is served (as it would from any server advertising it).
// resources.subscribe says subscriptions work: always in 2026-07-28
// (subscriptions/listen), in a legacy era only where a subscription has
// somewhere to live (stdio, a stateful HTTP session). listChanged is never
// offered: the listings never change.
func capabilities(subscribe bool) map[string]any {
	res := map[string]any{}
	if subscribe {
		res["subscribe"] = true
	}
	return map[string]any{"resources": res, "tools": map[string]any{},
		"experimental": map[string]any{protocol.CapabilitySimURIs: map[string]any{}}}
}

func (s *Server) serverInfo() map[string]string {
	return map[string]string{"name": s.opts.Name, "version": s.opts.Version}
}

// serverInfoMeta renders `"_meta":{...serverInfo...}` once per server.
func (s *Server) serverInfoMeta() []byte {
	b := mustMarshal(map[string]any{protocol.MetaServerInfo: s.serverInfo()})
	return append([]byte(`"_meta":`), b...)
}

// modernResult turns a result object into its 2026-07-28 form: serverInfo
// in _meta and resultType first, then the object's own members.
func (s *Server) modernResult(body []byte, resultType string) []byte {
	out := make([]byte, 0, len(body)+len(s.meta)+40)
	out = append(out, '{')
	out = append(out, s.meta...)
	out = append(out, `,"resultType":`...)
	out = strconv.AppendQuote(out, resultType)
	if len(body) > 2 {
		out = append(out, ',')
		out = append(out, body[1:]...)
		return out
	}
	return append(out, '}')
}

// result answers with a result object, in the call's era.
func (s *Server) result(c *call, body []byte) answer {
	if c.modern {
		body = s.modernResult(body, protocol.ResultComplete)
	}
	return answer{parts: [][]byte{protocol.AppendResult(nil, c.id, body)}}
}

// fail answers with a JSON-RPC error.
func (s *Server) fail(id json.RawMessage, e *protocol.Error) answer {
	return answer{parts: [][]byte{protocol.AppendError(nil, id, e)}, code: e.Code}
}

// notFound is the era's not-found error: -32002 before 2026-07-28, -32602
// from it on.
func notFound(modern bool, uri string) *protocol.Error {
	code := protocol.CodeResourceNotFound
	if modern {
		code = protocol.CodeInvalidParams
	}
	return protocol.NewError(code, "Resource not found", map[string]string{"uri": uri})
}
