// Package conns holds what a load generator's HTTP connections did, in one
// vocabulary for HTTP/1.1 (internal/h1) and HTTP/2 (internal/h2): a
// report that says what a connection cost must not depend on which
// protocol carried it (docs/measurement.md, connections).
package conns

// Stats is what a pool's connections did: how many were opened, how many
// requests went on one already open, and why connections ended before the
// pool could keep them. A load generator reports it, so that connection
// set-up is never silently measured as the server's latency. Closes of
// idle connections at the end are not counted: they are no churn.
type Stats struct {
	// Opened counts connections dialled; Requests the requests sent
	// (a request sent again on a new connection counts once), Reused
	// those of them that went on a connection already open (over HTTP/2,
	// every stream but a connection's first).
	Opened, Requests, Reused int64
	// Peak is the most connections open at once (HTTP/1.1's https
	// fallback's are counted in Opened, not here).
	Peak int64
	// ClosedByCut counts connections closed because their request's
	// context or deadline ended it before its response was whole. Over
	// HTTP/2 a cut resets its stream (HTTP2.ResetsByClient) and closes nothing.
	ClosedByCut int64
	// ClosedByServer counts connections the server ended: its response
	// said Connection: close, it sent GOAWAY, or it closed or reset the
	// connection (found closed in the pool, or before a response's end).
	ClosedByServer int64
	// ClosedByClient counts the others: the request said Connection:
	// close (a client without keep-alive), the caller stopped reading an
	// HTTP/1 body before its end, a response that could not be read, an
	// idle timeout or a full pool.
	ClosedByClient int64
	// HTTP2 is what HTTP/2 connections did besides: nil when none was
	// made.
	HTTP2 *HTTP2
}

// HTTP2 is the connection/stream split of HTTP/2: many reads share one
// connection, the server's SETTINGS_MAX_CONCURRENT_STREAMS rather than a
// pool bounds what is in flight, and a cut read is a RST_STREAM rather
// than a closed connection. Frames are counted as they crossed the wire,
// by who sent them.
type HTTP2 struct {
	// Streams counts the streams the client opened (one a request).
	Streams int64 `json:"streams"`
	// PeakStreams is the most streams in flight at once, over all
	// connections.
	PeakStreams int64 `json:"peak_streams"`
	// MaxConcurrentStreams is the smallest SETTINGS_MAX_CONCURRENT_STREAMS
	// a server connection advertised; 0 when none did (no limit).
	MaxConcurrentStreams uint32 `json:"max_concurrent_streams"`
	// Waited counts requests that waited for a stream: every connection
	// the pool may open had as many in flight as it may carry, or was
	// still being opened.
	Waited int64 `json:"waited"`
	// Refused counts streams the server reset with REFUSED_STREAM (it
	// did not process them; each is sent once more on another stream).
	Refused int64 `json:"refused"`
	// GOAWAY and RST_STREAM frames, by who sent them: a cut read's reset
	// is the client's, a server's graceful shutdown its GOAWAY.
	GoAwayByClient int64 `json:"goaway_by_client"`
	GoAwayByServer int64 `json:"goaway_by_server"`
	ResetsByClient int64 `json:"rst_stream_by_client"`
	ResetsByServer int64 `json:"rst_stream_by_server"`
}

// Add adds o into s (several pools' sum: Peak adds too, each pool's
// connections being its own; the HTTP/2 limit is the smaller one seen).
func (s *Stats) Add(o Stats) {
	s.Opened += o.Opened
	s.Requests += o.Requests
	s.Reused += o.Reused
	s.Peak += o.Peak
	s.ClosedByCut += o.ClosedByCut
	s.ClosedByServer += o.ClosedByServer
	s.ClosedByClient += o.ClosedByClient
	if o.HTTP2 == nil {
		return
	}
	if s.HTTP2 == nil {
		s.HTTP2 = &HTTP2{}
	}
	s.HTTP2.Add(*o.HTTP2)
}

// Add adds o into h: counts and peaks add (each pool's connections being
// its own), the server's limit is the smaller one seen.
func (h *HTTP2) Add(o HTTP2) {
	h.Streams += o.Streams
	h.PeakStreams += o.PeakStreams
	if o.MaxConcurrentStreams != 0 && (h.MaxConcurrentStreams == 0 || o.MaxConcurrentStreams < h.MaxConcurrentStreams) {
		h.MaxConcurrentStreams = o.MaxConcurrentStreams
	}
	h.Waited += o.Waited
	h.Refused += o.Refused
	h.GoAwayByClient += o.GoAwayByClient
	h.GoAwayByServer += o.GoAwayByServer
	h.ResetsByClient += o.ResetsByClient
	h.ResetsByServer += o.ResetsByServer
}
