package simserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// maxBody bounds a POST body: requests are small, and a client sending
// megabytes is broken or hostile.
const maxBody = 4 << 20

// Handler returns the Streamable HTTP transport (any path; readbench serve
// mounts it at /mcp). POST carries every message; a request is answered by
// one JSON body or, with Options.SSE or a read's sse=true, by an SSE stream
// whose one event is the response; notifications get 202. A 2026-07-28
// subscriptions/listen is answered by an SSE stream held open (listen.go).
// GET and DELETE get 405 unless Options.Stateful: then GET opens a
// session's standalone stream of notifications (subscribe.go) and DELETE
// ends the session. Both eras are told apart per request, the way the
// specification's backward-compatibility rules say: a 2026-07-28 request
// carries _meta and the MCP-Protocol-Version, Mcp-Method and Mcp-Name
// headers, so a plain POST can read a resource without any handshake.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if s.isCrashed() {
		panic(http.ErrAbortHandler) // a crashed server closes connections without answering
	}
	if !hostAllowed(r) {
		// DNS rebinding: a page on evil.example resolving to 127.0.0.1
		// must not reach a loopback server through a browser.
		http.Error(w, "Forbidden: Host is not a loopback name", http.StatusForbidden)
		return
	}
	switch {
	case r.Method == http.MethodPost:
		s.servePOST(w, r)
	case r.Method == http.MethodDelete && s.opts.Stateful:
		s.deleteSession(w, r)
	case r.Method == http.MethodGet && s.opts.Stateful:
		s.serveSessionStream(w, r)
	default:
		allow := "POST"
		if s.opts.Stateful {
			allow = "GET, POST, DELETE"
		}
		w.Header().Set("Allow", allow)
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

func (s *Server) servePOST(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		}
		return // otherwise the client is gone
	}
	if s.wedged() {
		// A wedged server never answers; the body is read, so net/http
		// notices the client leaving and ends the request's context.
		select {
		case <-r.Context().Done():
		case <-s.crashed:
		}
		return
	}
	hdrVer := r.Header.Get(protocol.HeaderProtocolVersion)
	modernHdr := protocol.IsModern(hdrVer)
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		writeJSONError(w, http.StatusBadRequest, nil, protocol.NewError(protocol.CodeInvalidRequest, "Invalid request: batches are not supported", nil))
		return
	}
	msg, pre, err := decodeMessage(body)
	if err != nil {
		writeJSONError(w, http.StatusBadRequest, nil, protocol.NewError(protocol.CodeParseError, "Parse error: "+err.Error(), nil))
		return
	}
	switch {
	case msg.IsRequest():
		s.serveHTTPRequest(w, r, msg, pre)
	case msg.IsNotification():
		if m := r.Header.Get(protocol.HeaderMethod); modernHdr && m != "" && m != msg.Method {
			writeJSONError(w, http.StatusBadRequest, nil, headerMismatch(protocol.HeaderMethod, m, msg.Method))
			return
		}
		sid, ok := s.checkSession(w, r, modernHdr)
		if !ok {
			return
		}
		s.httpNotify(sid, msg, pre)
		w.WriteHeader(http.StatusAccepted)
	case msg.IsResponse():
		s.clientReplied(msg.ID) // the reply to a request of ours (wire=ping, wire=sampling)
		w.WriteHeader(http.StatusAccepted)
	default:
		writeJSONError(w, http.StatusBadRequest, msg.ID, protocol.NewError(protocol.CodeInvalidRequest, "Invalid request: no method", nil))
	}
}

// serveHTTPRequest validates the era and headers of a request, serves it
// and writes the answer.
func (s *Server) serveHTTPRequest(w http.ResponseWriter, r *http.Request, msg *protocol.Message, pre *paramsDecoder) {
	hdrVer := r.Header.Get(protocol.HeaderProtocolVersion)
	c, perr := newCall(msg, pre)
	if c.method == protocol.MethodResourcesRead {
		c.hdr = headerTraceOf(r.Header)
	}
	modern := protocol.IsModern(hdrVer) || (c.metaVersion != "" && (protocol.IsModern(c.metaVersion) || !protocol.IsKnownVersion(c.metaVersion)))
	if perr == nil {
		perr = s.checkEra(r, c, hdrVer, modern)
	}
	if perr != nil {
		writeJSONError(w, statusFor(perr.Code, modern), c.id, perr)
		return
	}
	if c.modern && c.method == protocol.MethodSubscriptionsListen {
		s.serveListenHTTP(w, r, c)
		return
	}
	if s.opts.EndlessHandshake && isHandshake(c.method) {
		serveEndlessHTTP(w, r, c.id)
		return
	}
	sid := ""
	if !c.modern && c.method != protocol.MethodInitialize {
		var ok bool
		if sid, ok = s.checkSession(w, r, false); !ok {
			return
		}
	}
	if sid != "" {
		c.host = sessionHost{s: s, id: sid}
	}

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if sid != "" {
		defer s.track(sid, c.id, cancel)()
	}
	a := s.serve(ctx, context.WithoutCancel(r.Context()), c)
	if a.initialized != "" && s.opts.Stateful {
		w.Header().Set(protocol.HeaderSessionID, s.newSession(a.initialized))
	}
	switch {
	case a.parts != nil:
		s.writeAnswer(w, r, &a, c.modern)
		if a.read {
			s.answered(&a)
		}
	case s.isCrashed():
		panic(http.ErrAbortHandler)
	case r.Context().Err() == nil:
		// Cancelled by notifications/cancelled while the client still
		// listens: end the stream without a response, as the spec allows.
		w.Header().Set("Content-Type", protocol.ContentTypeSSE)
		w.WriteHeader(http.StatusOK)
	}
}

// checkEra resolves the era of an HTTP request and, for a 2026-07-28 one,
// checks that the headers repeat the body: MCP-Protocol-Version equals the
// _meta version, Mcp-Method the method, Mcp-Name the uri (or tool name),
// plain or in the =?base64?…?= form. A mismatch is -32020.
func (s *Server) checkEra(r *http.Request, c *call, hdrVer string, modern bool) *protocol.Error {
	switch {
	case c.metaVersion == "" && protocol.IsModern(hdrVer):
		return protocol.NewError(protocol.CodeInvalidParams, "Invalid params: missing _meta "+protocol.MetaProtocolVersion, nil)
	case !modern && hdrVer != "" && !protocol.IsKnownVersion(hdrVer):
		return unsupportedVersion(hdrVer)
	case !modern:
		fallback := hdrVer
		if fallback == "" {
			fallback = s.sessionVersion(r.Header.Get(protocol.HeaderSessionID))
		}
		return c.resolveEra(fallback)
	}
	if hdrVer != c.metaVersion {
		return headerMismatch(protocol.HeaderProtocolVersion, hdrVer, c.metaVersion)
	}
	if err := c.resolveEra(""); err != nil {
		return err
	}
	if m := r.Header.Get(protocol.HeaderMethod); m != c.method {
		return headerMismatch(protocol.HeaderMethod, m, c.method)
	}
	want, named := "", false
	switch c.method {
	case protocol.MethodResourcesRead:
		named = true
		if c.p.URI != nil {
			want = *c.p.URI
		}
	case protocol.MethodToolsCall:
		want, named = c.p.Name, true
	}
	if named {
		got := r.Header.Get(protocol.HeaderName)
		dec, ok := protocol.DecodeHeaderValue(got)
		if got == "" || (got != want && (!ok || dec != want)) {
			return headerMismatch(protocol.HeaderName, got, want)
		}
	}
	return nil
}

func headerMismatch(header, got, want string) *protocol.Error {
	return protocol.NewError(protocol.CodeHeaderMismatch,
		fmt.Sprintf("Header mismatch: %s is %q, the request says %q", header, got, want),
		map[string]string{"header": header, "got": got, "want": want})
}

// statusFor is the HTTP status of an error answer. A message the server
// cannot take (parse error, invalid request, a header mismatch, a version it
// does not speak) is 400 in any era; beyond that 2026-07-28 maps errors onto
// statuses (method not found 404, invalid params and a missing capability
// 400) while the legacy era answers JSON-RPC errors with 200.
func statusFor(code int, modern bool) int {
	switch {
	case code == protocol.CodeParseError, code == protocol.CodeInvalidRequest,
		code == protocol.CodeHeaderMismatch, code == protocol.CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	case !modern:
		return http.StatusOK
	case code == protocol.CodeMethodNotFound:
		return http.StatusNotFound
	case code == protocol.CodeInvalidParams, code == protocol.CodeMissingClientCapability:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// writeAnswer writes an answer as one JSON body, or as an SSE stream when
// the server or the read asks for it and the client accepts it. Errors with
// a non-200 status always go as JSON, so the status can say what they are.
// Nothing is written for a request whose client has gone.
func (s *Server) writeAnswer(w http.ResponseWriter, r *http.Request, a *answer, modern bool) {
	if r.Context().Err() != nil {
		return
	}
	if a.wire != WireNone && a.wire != WireWrongID {
		s.writeWire(w, r, a)
		return
	}
	status := http.StatusOK
	if a.code != 0 {
		status = statusFor(a.code, modern)
	}
	jsonOK, sseOK := accepts(r.Header.Values("Accept"))
	if status != http.StatusOK || !sseOK || (!s.opts.SSE && !a.sse && jsonOK) {
		h := w.Header()
		h.Set("Content-Type", protocol.ContentTypeJSON)
		h.Set("Content-Length", strconv.Itoa(a.size()))
		w.WriteHeader(status)
		for _, p := range a.parts {
			if _, err := w.Write(p); err != nil {
				return
			}
		}
		return
	}
	h := w.Header()
	h.Set("Content-Type", protocol.ContentTypeSSE)
	h.Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	// One event; the JSON never holds a raw newline, so it is one data line
	// and the pieces are written as they are, never copied.
	if _, err := io.WriteString(w, "event: message\ndata: "); err != nil {
		return
	}
	for _, p := range a.parts {
		if _, err := w.Write(p); err != nil {
			return
		}
	}
	if _, err := io.WriteString(w, "\n\n"); err == nil {
		_ = http.NewResponseController(w).Flush()
	}
}

// accepts reads the Accept header: which of JSON and SSE the client takes.
// No Accept header (or */*) takes both.
func accepts(values []string) (jsonOK, sseOK bool) {
	if len(values) == 0 {
		return true, true
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
			switch mt {
			case "*/*":
				jsonOK, sseOK = true, true
			case protocol.ContentTypeJSON, "application/*":
				jsonOK = true
			case protocol.ContentTypeSSE, "text/*":
				sseOK = true
			}
		}
	}
	if !jsonOK && !sseOK { // an Accept naming neither: answer JSON anyway
		jsonOK = true
	}
	return jsonOK, sseOK
}

func writeJSONError(w http.ResponseWriter, status int, id []byte, e *protocol.Error) {
	b := protocol.AppendError(nil, id, e)
	w.Header().Set("Content-Type", protocol.ContentTypeJSON)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// hostAllowed protects a server listening on loopback from DNS rebinding:
// its requests must name a loopback host (and come from a loopback origin,
// when a browser says where). Servers on other interfaces accept any Host.
func hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || !isLoopbackAddr(local) {
		return true
	}
	if !protocol.IsLoopbackHost(r.Host) {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || !protocol.IsLoopbackHost(u.Host) {
			return false
		}
	}
	return true
}

func isLoopbackAddr(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
