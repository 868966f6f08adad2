package client

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/readbench/readbench/internal/h1"
	"github.com/readbench/readbench/protocol"
)

// A read's request differs from the last read of the same URI by its id
// alone: its body's URI (escaped for JSON) and, over plain http, its
// header lines (the session's id and version, the URI as an Mcp-Name
// value) are encoded once and kept. A workload's mix has few URIs; a
// ranged or templated one may have thousands, so a session keeps the
// first uriCacheCap and encodes any other per read, as without a cache.

// uriCacheCap bounds the URIs a session keeps encoded, so that what a
// session holds stays small whatever it reads (each entry is about the
// URI's length twice over), and so that finding one stays a short scan.
const uriCacheCap = 16

// uriCache maps a URI to what is encoded of it, for the first
// uriCacheCap URIs stored. A lookup scans a slice of at most uriCacheCap
// entries, which the workload's own string (a read's URI comes from the
// plan) matches at its first byte; no hash of the URI per read, and no
// map's nodes to miss in the cache. It is safe for concurrent use: stores
// copy the slice. Its zero value is empty and allocates nothing until a
// store.
type uriCache[V any] struct {
	kept atomic.Pointer[[]uriEntry[V]]
	mu   sync.Mutex // serialises stores
}

type uriEntry[V any] struct {
	uri string
	v   *V
}

// load returns the value kept for uri, nil when none.
func (c *uriCache[V]) load(uri string) *V {
	if p := c.kept.Load(); p != nil {
		for i := range *p {
			if e := &(*p)[i]; e.uri == uri {
				return e.v
			}
		}
	}
	return nil
}

// full is true when uriCacheCap URIs are kept: a URI not kept is then
// encoded per use, into its request (allocating nothing more).
func (c *uriCache[V]) full() bool {
	p := c.kept.Load()
	return p != nil && len(*p) >= uriCacheCap
}

// len is how many URIs are kept.
func (c *uriCache[V]) len() int {
	if p := c.kept.Load(); p != nil {
		return len(*p)
	}
	return 0
}

// store keeps v for uri while fewer than uriCacheCap URIs are kept:
// past the bound, a URI is encoded per use. A URI kept already (another
// read stored it first, with the same bytes) stays as it is.
func (c *uriCache[V]) store(uri string, v *V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var old []uriEntry[V]
	if p := c.kept.Load(); p != nil {
		old = *p
	}
	if len(old) >= uriCacheCap || slices.ContainsFunc(old, func(e uriEntry[V]) bool { return e.uri == uri }) {
		return
	}
	kept := append(slices.Clip(old), uriEntry[V]{uri: uri, v: v})
	c.kept.Store(&kept)
}

// escapedURI is a URI as a JSON string (protocol.AppendString).
type escapedURI struct{ json []byte }

// appendURI appends uri as a JSON string, from s's cache.
func (s *Session) appendURI(dst []byte, uri string) []byte {
	if e := s.uris.load(uri); e != nil {
		return append(dst, e.json...)
	}
	if s.uris.full() {
		return protocol.AppendString(dst, uri, protocol.LikeEncodingJSON)
	}
	e := &escapedURI{json: protocol.AppendString(nil, uri, protocol.LikeEncodingJSON)}
	s.uris.store(uri, e)
	return append(dst, e.json...)
}

// postHeadCache keeps what sendPost writes of a read's header lines
// beyond the transport's fixed ones: the lines of the session's state
// (they change when the session id or version does) and each URI's
// Mcp-Name line. nil encodes them per read.
type postHeadCache struct {
	state atomic.Pointer[stateLines]
	names uriCache[headerLine]
}

// stateLines are the header lines of a session state: its id, version
// and, in the stateless era, the method.
type stateLines struct {
	sid, version string
	modern       bool
	headerLine
}

// headerLine is encoded header lines, and whether h1 took them (false:
// a value h1 refuses, and the read goes the http.Request way).
type headerLine struct {
	lines []byte
	ok    bool
}

// appendReadLines appends the header lines of a read in session state
// sid, version, modern reading name, as sendPost sends them; ok is false
// when h1 refuses one of them. A nil c encodes every line.
func (c *postHeadCache) appendReadLines(dst []byte, sid, version string, modern bool, name string) ([]byte, bool) {
	if c == nil {
		dst, ok := appendStateLines(dst, sid, version, modern)
		if ok && modern && name != "" {
			return appendNameLine(dst, name)
		}
		return dst, ok
	}
	st := c.state.Load()
	if st == nil || st.sid != sid || st.version != version || st.modern != modern {
		st = &stateLines{sid: sid, version: version, modern: modern}
		st.lines, st.ok = appendStateLines(nil, sid, version, modern)
		c.state.Store(st)
	}
	if !st.ok {
		return dst, false
	}
	dst = append(dst, st.lines...)
	if !modern || name == "" {
		return dst, true
	}
	n := c.names.load(name)
	if n == nil {
		if c.names.full() {
			return appendNameLine(dst, name)
		}
		n = &headerLine{}
		n.lines, n.ok = appendNameLine(nil, name)
		c.names.store(name, n)
	}
	if !n.ok {
		return dst, false
	}
	return append(dst, n.lines...), true
}

// appendNameLine appends the Mcp-Name line of name; ok is false when h1
// refuses it.
func appendNameLine(dst []byte, name string) ([]byte, bool) {
	dst, err := h1.AppendHeader(dst, canonicalName, protocol.EncodeHeaderValue(name))
	return dst, err == nil
}

// appendStateLines appends the header lines of a session state (see
// stateLines); ok is false when h1 refuses one.
func appendStateLines(dst []byte, sid, version string, modern bool) ([]byte, bool) {
	var err error
	ok := true
	if sid != "" {
		dst, err = h1.AppendHeader(dst, canonicalSessionID, sid)
		ok = err == nil
	}
	if version != "" && (modern || version >= protocol.V20250618) {
		dst, err = h1.AppendHeader(dst, canonicalProtocolVersion, version)
		ok = ok && err == nil
	}
	if modern {
		dst, _ = h1.AppendHeader(dst, canonicalMethod, protocol.MethodResourcesRead)
	}
	return dst, ok
}
