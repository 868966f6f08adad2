package results

import (
	"fmt"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/internal/numfmt"
)

// Connections is what a run's HTTP connections did (key "connections",
// added in v1; null for a target that has none: stdio), over the whole
// run, warmup included (the warmup opens the connections the measured
// phase then reuses). A real client's pool reuses a finished read's
// connection whatever its turn's deadline; only a read cut before its
// answer was whole costs its connection, since HTTP/1.1 cannot abandon a
// response and keep the connection (docs/measurement.md, connections).
//
// Requests counts every HTTP request of the run's sessions (reads, and the
// handshake's, cancels' and session ends' own); Reused those of them that
// went on a connection from the pool. PeakOpen is the most connections
// open at once (plain http; the https pool's are in Opened only). The
// closed_by counts say who ended a connection before the pool could keep
// it: readbench's cut reads, the server (Connection: close, a close or
// reset), or readbench otherwise (keep_alive: false, a response it stopped
// reading or could not read, an idle or surplus connection). Churn is the
// report's one line when those closes are material, "" otherwise.
type Connections struct {
	KeepAlive      bool     `json:"keep_alive"`
	Opened         int64    `json:"opened"`
	Requests       int64    `json:"requests"`
	Reused         int64    `json:"reused"`
	ReusedShare    *float64 `json:"reused_share"` // reused / requests, null without requests
	PeakOpen       int64    `json:"peak_open"`
	ClosedByCut    int64    `json:"closed_by_cut"`
	ClosedByServer int64    `json:"closed_by_server"`
	ClosedByClient int64    `json:"closed_by_client"`
	Churn          string   `json:"churn"`
	// HTTP2 is the connection/stream split when reads went over HTTP/2
	// (key "http2", added in v1; absent otherwise).
	HTTP2 *conns.HTTP2 `json:"http2,omitempty"`
}

// MaterialChurnShare is the share of requests whose connection was closed
// before the pool could keep it past which the report says connection
// churn is material: from there on, one read in ten or more paid a
// connection's set-up, which the server's latency figures then carry.
const MaterialChurnShare = 0.1

// withChurn is c with its derived keys (reused share, churn line) set.
func (c Connections) withChurn() *Connections {
	c.ReusedShare = quotient(float64(c.Reused), float64(c.Requests), nil)
	c.Churn = churnLine(c)
	return &c
}

// Closed is how many connections ended before the pool could keep them.
func (c Connections) Closed() int64 { return c.ClosedByCut + c.ClosedByServer + c.ClosedByClient }

// churnLine says in one line that connection churn was material, and who
// caused it; "" when it was not (fewer than 10 closes, or under
// MaterialChurnShare of the requests).
func churnLine(c Connections) string {
	closed := c.Closed()
	if closed < 10 || float64(closed) < MaterialChurnShare*float64(c.Requests) {
		return ""
	}
	head := fmt.Sprintf("connection churn: %s connections opened for %s requests (%s reused)",
		numfmt.Count(c.Opened), numfmt.Count(c.Requests), numfmt.Opt(c.ReusedShare, numfmt.Share))
	if !c.KeepAlive {
		return head + ": load.keep_alive: false asks for a connection per read, as a client without keep-alive"
	}
	switch max(c.ClosedByCut, c.ClosedByServer, c.ClosedByClient) {
	case c.ClosedByServer:
		return head + fmt.Sprintf(": the server closed %s of them (Connection: close, or a close or reset); every read on a new connection pays its set-up", numfmt.Count(c.ClosedByServer))
	case c.ClosedByCut:
		return head + fmt.Sprintf(": readbench closed %s for reads cut before their answer was whole (the turn deadline or the read timeout): HTTP/1.1 cannot abandon a response and keep its connection", numfmt.Count(c.ClosedByCut))
	}
	return head + fmt.Sprintf(": readbench closed %s (responses it stopped reading or could not read, idle or surplus connections)", numfmt.Count(c.ClosedByClient))
}

// mergeConnections adds the connections of shards: counts add (each
// shard's pool is its own, so their peaks add too); nil when no shard had
// any.
func mergeConnections(all []*Connections) *Connections {
	var out *Connections
	for _, c := range all {
		if c == nil {
			continue
		}
		if out == nil {
			out = &Connections{KeepAlive: c.KeepAlive}
		}
		out.Opened += c.Opened
		out.Requests += c.Requests
		out.Reused += c.Reused
		out.PeakOpen += c.PeakOpen
		out.ClosedByCut += c.ClosedByCut
		out.ClosedByServer += c.ClosedByServer
		out.ClosedByClient += c.ClosedByClient
		if c.HTTP2 != nil {
			if out.HTTP2 == nil {
				out.HTTP2 = &conns.HTTP2{}
			}
			out.HTTP2.Add(*c.HTTP2)
		}
	}
	return out // Build derives the share and the churn line
}
