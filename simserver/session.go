package simserver

import (
	"context"
	"crypto/rand"
	"net/http"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// Sessions of the stateful legacy HTTP mode (Options.Stateful). A session is
// issued on initialize, required on every later legacy request and ended by
// DELETE; it also scopes notifications/cancelled, which over HTTP names a
// request id that only means something within one session. 2026-07-28
// requests are stateless and never need one.

// newSession registers a session negotiated at version and returns its id.
func (s *Server) newSession(version string) string {
	id := rand.Text()
	s.sessMu.Lock()
	s.sessions[id] = version
	s.sessMu.Unlock()
	return id
}

// sessionVersion is the version negotiated by a session, or LatestLegacy.
func (s *Server) sessionVersion(id string) string {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	if v, ok := s.sessions[id]; ok && id != "" {
		return v
	}
	return protocol.LatestLegacy
}

// checkSession enforces the session of a legacy message in stateful mode:
// a missing Mcp-Session-Id is 400, an unknown one 404 (the client must
// initialize again). It returns the session id ("" when stateless).
func (s *Server) checkSession(w http.ResponseWriter, r *http.Request, modern bool) (string, bool) {
	if !s.opts.Stateful || modern {
		return "", true
	}
	id := r.Header.Get(protocol.HeaderSessionID)
	if id == "" {
		writeJSONError(w, http.StatusBadRequest, nil, protocol.NewError(protocol.CodeInvalidRequest, "Invalid request: missing "+protocol.HeaderSessionID+" (initialize first)", nil))
		return "", false
	}
	s.sessMu.Lock()
	_, ok := s.sessions[id]
	s.sessMu.Unlock()
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return "", false
	}
	return id, true
}

// deleteSession ends a session (DELETE) and cancels its requests in flight.
func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(protocol.HeaderSessionID)
	if id == "" {
		http.Error(w, "missing "+protocol.HeaderSessionID, http.StatusBadRequest)
		return
	}
	s.sessMu.Lock()
	_, ok := s.sessions[id]
	delete(s.sessions, id)
	for key, cancel := range s.httpInflight {
		if strings.HasPrefix(key, id+"\x00") {
			cancel()
		}
	}
	s.sessMu.Unlock()
	s.endSessionSubscriber(id)
	if !ok {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// track registers a request of a session as cancellable by
// notifications/cancelled; the returned func unregisters it.
func (s *Server) track(session string, id []byte, cancel context.CancelFunc) func() {
	key := session + "\x00" + idKey(id)
	s.sessMu.Lock()
	s.httpInflight[key] = cancel
	s.sessMu.Unlock()
	return func() {
		s.sessMu.Lock()
		delete(s.httpInflight, key)
		s.sessMu.Unlock()
	}
}

// httpNotify applies a notification received over HTTP. Only a session can
// say whose request id notifications/cancelled names; without one the
// client cancels by closing the request's stream.
func (s *Server) httpNotify(session string, msg *protocol.Message, pre *paramsDecoder) {
	if msg.Method != protocol.MethodCancelled || session == "" {
		return
	}
	c, perr := newCall(msg, pre)
	if perr != nil || len(c.p.RequestID) == 0 {
		return
	}
	s.sessMu.Lock()
	cancel := s.httpInflight[session+"\x00"+idKey(c.p.RequestID)]
	s.sessMu.Unlock()
	if cancel != nil {
		cancel()
	}
}
