package report

import (
	"fmt"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// What a run's HTTP connections did, as every report says it: a
// "connections" line among the details (opened, reused, who closed them)
// and, when connection churn was material, the result's own churn line in
// the header, where the reader sees it before any latency figure that
// churn inflates.

// connectionsText is the details line of c; "" for a run without HTTP
// connections (stdio).
func connectionsText(c *results.Connections) string {
	if c == nil {
		return ""
	}
	s := fmt.Sprintf("%s opened for %s requests (%s reused", numfmt.Count(c.Opened), numfmt.Count(c.Requests),
		numfmt.Opt(c.ReusedShare, numfmt.Share))
	if c.PeakOpen > 0 {
		s += fmt.Sprintf(", at most %s open at once", numfmt.Count(c.PeakOpen))
	}
	if !c.KeepAlive {
		s += "; keep_alive: false"
	}
	s += ")"
	if c.Closed() == 0 {
		s += "; none closed before the pool could keep it"
	} else {
		s += fmt.Sprintf("; closed early: %s by cut reads, %s by the server, %s by readbench",
			numfmt.Count(c.ClosedByCut), numfmt.Count(c.ClosedByServer), numfmt.Count(c.ClosedByClient))
	}
	return s + http2Text(c.HTTP2)
}

// http2Text is the HTTP/2 split of the connections line: streams and
// connections, the server's limit, what waited or was refused, and the
// resets and GOAWAYs by who sent them; "" over HTTP/1.1.
func http2Text(h *conns.HTTP2) string {
	if h == nil {
		return ""
	}
	limit := "the server advertised no limit"
	if h.MaxConcurrentStreams > 0 {
		limit = "the server's limit " + numfmt.Count(int64(h.MaxConcurrentStreams))
	}
	return fmt.Sprintf("; HTTP/2: %s streams, at most %s at once (%s), %s waited for a stream, %s refused; "+
		"RST_STREAM %s by readbench, %s by the server; GOAWAY %s by the server",
		numfmt.Count(h.Streams), numfmt.Count(h.PeakStreams), limit, numfmt.Count(h.Waited), numfmt.Count(h.Refused),
		numfmt.Count(h.ResetsByClient), numfmt.Count(h.ResetsByServer), numfmt.Count(h.GoAwayByServer))
}

// churnText is the header's churn line, "" when churn was not material.
func churnText(c *results.Connections) string {
	if c == nil {
		return ""
	}
	return c.Churn
}
