package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/protocol"
)

// What a session says about itself and lets its users do beyond reads: the
// discovery of a load run, `readbench init` and the contract check are
// built on these, never on a concrete transport.

// Server is what the server said about itself in the handshake.
func (s *Session) Server() Implementation { return s.server }

// SimURIs reports whether the server advertised the experimental
// capability protocol.CapabilitySimURIs in its handshake: it serves any
// sim: URI.
func (s *Session) SimURIs() bool { return s.simURIs }

// Capabilities are what the server declared it offers in the handshake:
// the contract check marks the rows of a capability it lacks not
// applicable.
func (s *Session) Capabilities() Capabilities { return s.caps }

// Connections is what the session's HTTP connections did so far (opened,
// reused, why they ended); ok is false over stdio, which has none.
func (s *Session) Connections() (conns.Stats, bool) {
	switch t := s.t.(type) {
	case *httpTransport:
		return connStats(t.client)
	case *sseTransport:
		return connStats(t.client)
	}
	return conns.Stats{}, false
}

// ProtocolVersion is the version the session speaks.
func (s *Session) ProtocolVersion() string { return s.version }

// Modern reports whether the session speaks the stateless 2026-07-28 era.
func (s *Session) Modern() bool { return s.modern }

// Call sends a request whose answer is small (a listing, a tool call),
// with the era's per-request _meta added to params, and decodes its result
// into out. A JSON-RPC error comes back as *protocol.Error.
func (s *Session) Call(ctx context.Context, method string, params map[string]any, out any) error {
	return s.callSmall(ctx, method, s.withMeta(params), out)
}

// Listing says how a Paginate walk ended.
type Listing struct {
	Pages int
	// Limited: stopped after maxPages pages while the server offered more.
	Limited bool
	// RepeatedCursor is a cursor the server handed back a second time (a
	// pagination loop): the walk stopped there. "" when none.
	RepeatedCursor string
}

// Warning says in a sentence why the listing of method is incomplete, ""
// when it is complete.
func (l Listing) Warning(method string) string {
	switch {
	case l.RepeatedCursor != "":
		return fmt.Sprintf("%s: the server repeated cursor %q after %d pages (a pagination loop); stopped there", method, l.RepeatedCursor, l.Pages)
	case l.Limited:
		return fmt.Sprintf("%s: stopped after %d pages, the server offered more", method, l.Pages)
	}
	return ""
}

// Paginate calls a list method page after page, handing each result to
// page, which returns the next cursor ("" ends the walk). Each page has
// its own timeout. It stops at the last page, after maxPages pages, or
// when the server hands back a cursor it already gave (a loop): the last
// two are not errors, since what was listed so far is still good; Listing
// says which. Every listing readbench walks (resources, templates, tools)
// goes through here.
func (s *Session) Paginate(ctx context.Context, method string, maxPages int, timeout time.Duration, page func(json.RawMessage) (string, error)) (Listing, error) {
	var l Listing
	seen := map[string]bool{}
	cursor := ""
	for {
		if l.Pages == maxPages {
			l.Limited = true
			return l, nil
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var raw json.RawMessage
		pctx, cancel := context.WithTimeout(ctx, timeout)
		err := s.Call(pctx, method, params, &raw)
		cancel()
		if err != nil {
			return l, fmt.Errorf("%s (page %d): %w", method, l.Pages+1, err)
		}
		l.Pages++
		next, err := page(raw)
		if err != nil {
			return l, fmt.Errorf("%s (page %d): unreadable result: %w", method, l.Pages, err)
		}
		if next == "" {
			return l, nil
		}
		if seen[next] {
			l.RepeatedCursor = next
			return l, nil
		}
		seen[next] = true
		cursor = next
	}
}

// NewRequest encodes a request with a fresh id and the era's _meta, for a
// caller that must know the id before the answer: to cancel it by hand
// (Cancel) while still listening for an answer that should not come.
// name is the Mcp-Name header value ("" when none).
func (s *Session) NewRequest(method, name string, params map[string]any) (Request, error) {
	id := s.nextID.Add(1)
	body, err := protocol.AppendRequest(nil, protocol.IntID(id), method, s.withMeta(params))
	if err != nil {
		return Request{}, fmt.Errorf("encode %s: %w", method, err)
	}
	return Request{ID: id, method: method, name: name, body: body}, nil
}

// Do sends req once (no session renewal) and waits for its answer; when
// ctx ends first the transport cancels it as its era says.
func (s *Session) Do(ctx context.Context, req Request) (*Response, error) {
	return s.t.call(ctx, req)
}

// Cancel sends notifications/cancelled for request id with reason, as
// stdio and handshake-era HTTP cancel.
func (s *Session) Cancel(ctx context.Context, id int64, reason string) error {
	n, err := cancelNotification(id, reason)
	if err != nil {
		return err
	}
	return s.t.notify(ctx, n)
}

// PerRequestStream reports whether each request has a response stream of
// its own (Streamable HTTP): then in the 2026-07-28 era closing it is the
// whole cancellation, and a stream that ends without an answer is a
// server that stopped, not a lost connection.
func (s *Session) PerRequestStream() bool {
	switch s.t.(type) {
	case *httpTransport:
		return true
	}
	return false
}

// LateAnswersObservable reports whether an answer sent after its request
// was given up on can be seen at all: on stdio and HTTP+SSE it arrives on
// the shared stream and is counted; on Streamable HTTP the request's own
// stream is closed, so nothing more can arrive and a count would always
// be 0 — which must never read as "the server honoured the cancel".
func (s *Session) LateAnswersObservable() bool { return !s.PerRequestStream() }

// SessionID is the Mcp-Session-Id the server issued, "" when none.
func (s *Session) SessionID() string {
	if st, ok := s.t.(sessionIDTransport); ok {
		return st.liveSessionID()
	}
	return ""
}

// Process describes the server process behind a stdio session: its pid
// (for sampling its CPU and memory) and how long after the spawn its first
// message of any kind came (0: none yet). ok is false for a server
// readbench did not start.
func (s *Session) Process() (pid int, spawnToFirstMessage time.Duration, ok bool) {
	st, ok := s.t.(*stdioTransport)
	if !ok {
		return 0, 0, false
	}
	return st.pid(), time.Duration(st.firstLine.Load()), true
}
