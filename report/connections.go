package report

import (
	"fmt"

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
		return s + "; none closed before the pool could keep it"
	}
	return s + fmt.Sprintf("; closed early: %s by cut reads, %s by the server, %s by readbench",
		numfmt.Count(c.ClosedByCut), numfmt.Count(c.ClosedByServer), numfmt.Count(c.ClosedByClient))
}

// churnText is the header's churn line, "" when churn was not material.
func churnText(c *results.Connections) string {
	if c == nil {
		return ""
	}
	return c.Churn
}
