package client

import (
	"maps"
	"slices"
	"strconv"

	"github.com/readbench/readbench/protocol"
)

// The stateless era's per-request _meta: the same for every request of
// a session's version, so it is built and encoded once per version and
// shared, never modified once built. A read in flight holds its own
// params, not three maps more, and encodes none of the _meta again.

// sessionMeta is the _meta of one version: as a value (withMeta, for the
// requests encoded from maps) and encoded (metaJSON, for reads).
type sessionMeta struct {
	version string
	params  map[string]any
	raw     []byte
}

// currentMeta is s's _meta for its version now, built on first use and
// again after the version changed.
func (s *Session) currentMeta() *sessionMeta {
	if m := s.meta.Load(); m != nil && m.version == s.version {
		return m
	}
	params := map[string]any{
		protocol.MetaProtocolVersion:    s.version,
		protocol.MetaClientCapabilities: map[string]any{},
		// a map, not the struct: the same bytes, and protocol encodes
		// maps of strings without reflection
		protocol.MetaClientInfo: map[string]any{"name": s.client.Name, "version": s.client.Version},
	}
	raw, err := protocol.AppendRequest(nil, nil, "", params)
	if err != nil {
		panic(err) // strings and maps of strings always encode
	}
	// {"jsonrpc":"2.0","method":"","params":META}: the params alone, in
	// a slice of their own size (the encoder's is 512 bytes, for a whole
	// request): every idle session keeps it.
	raw = slices.Clone(raw[len(`{"jsonrpc":"2.0","method":"","params":`) : len(raw)-1])
	m := &sessionMeta{version: s.version, params: params, raw: raw}
	s.meta.Store(m)
	return m
}

// withMeta adds the stateless era's per-request _meta to params: the
// session's shared map, or its members copied into a _meta map of the
// caller's own (a traced read tool call's: traceMeta).
func (s *Session) withMeta(params map[string]any) map[string]any {
	if s.modern {
		if params == nil { // Call(ctx, "ping", nil, …): the _meta needs a params object
			params = map[string]any{}
		}
		if own, ok := params["_meta"].(map[string]any); ok {
			maps.Copy(own, s.currentMeta().params)
		} else {
			params["_meta"] = s.currentMeta().params
		}
	}
	return params
}

// metaJSON is the encoding of the session's _meta.
func (s *Session) metaJSON() []byte { return s.currentMeta().raw }

// appendReadRequest appends the resources/read of uri with id: byte for
// byte what protocol.AppendRequest makes of withMeta({"uri": uri}) (keys
// in order: _meta, then uri), without building the maps, and with trace
// context tp (when set) first in _meta (tracecontext.go). It is the
// request readbench sends most, once per read.
func (s *Session) appendReadRequest(dst []byte, id int64, uri string, tp protocol.TraceParent) []byte {
	if dst == nil {
		dst = make([]byte, 0, 96+len(uri)+len(s.metaJSON())+protocol.TraceParentLen+len(s.traceState)+32)
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = strconv.AppendInt(dst, id, 10)
	dst = append(dst, `,"method":"`+protocol.MethodResourcesRead+`","params":{`...)
	switch {
	case s.modern && !tp.IsZero():
		dst = append(dst, `"_meta":{`...)
		dst = s.appendTraceMeta(dst, tp)
		dst = append(dst, s.metaJSON()[1:]...) // the session's members after the trace's
		dst = append(dst, ',')
	case s.modern:
		dst = append(dst, `"_meta":`...)
		dst = append(dst, s.metaJSON()...)
		dst = append(dst, ',')
	case !tp.IsZero():
		dst = append(dst, `"_meta":{`...)
		dst = s.appendTraceMeta(dst, tp)
		dst[len(dst)-1] = '}' // the trace's members alone: the last comma closes the object
		dst = append(dst, ',')
	}
	dst = append(dst, `"uri":`...)
	dst = s.appendURI(dst, uri) // escaped once per URI (readcache.go)
	return append(dst, `}}`...)
}
