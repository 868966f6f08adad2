package results

import (
	"strings"
	"testing"
)

// TestChurnLine: the churn line is written when connections closed
// before the pool could keep them are at least a tenth of the requests
// (and ten or more), and names who caused it; a pool that kept its
// connections, however many reads in flight opened them, has none.
func TestChurnLine(t *testing.T) {
	for _, c := range []struct {
		name string
		c    Connections
		want string // "" for no line
	}{
		{"16 in flight, kept", Connections{KeepAlive: true, Opened: 16, Requests: 3014, Reused: 2998, PeakOpen: 16}, ""},
		{"a few cut reads", Connections{KeepAlive: true, Opened: 30, Requests: 3014, Reused: 2984, PeakOpen: 16, ClosedByCut: 14}, ""},
		{"nine closes of twenty requests", Connections{KeepAlive: true, Opened: 10, Requests: 20, Reused: 10, ClosedByServer: 9}, ""},
		{"the server closes every connection", Connections{KeepAlive: true, Opened: 2993, Requests: 3014, Reused: 21, ClosedByServer: 2990},
			"connection churn: 2,993 connections opened for 3,014 requests (0.70% reused): the server closed 2,990 of them"},
		{"an overloaded run's cut reads", Connections{KeepAlive: true, Opened: 7700, Requests: 9010, Reused: 1310, ClosedByCut: 7599, ClosedByServer: 3},
			"readbench closed 7,599 for reads cut before their answer was whole"},
		{"keep_alive: false", Connections{Opened: 200, Requests: 200, ClosedByClient: 200},
			"load.keep_alive: false asks for a connection per read"},
		{"readbench's own", Connections{KeepAlive: true, Opened: 100, Requests: 300, Reused: 200, ClosedByClient: 99},
			"readbench closed 99 (responses it stopped reading"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.c.withChurn()
			if c.want == "" && got.Churn != "" || !strings.Contains(got.Churn, c.want) {
				t.Errorf("churn %q, want %q", got.Churn, c.want)
			}
			if got.ReusedShare == nil || *got.ReusedShare != float64(c.c.Reused)/float64(c.c.Requests) {
				t.Errorf("reused share %v", got.ReusedShare)
			}
		})
	}
}

// TestMergeConnections: shards' connections add; shards without any
// (stdio) leave null.
func TestMergeConnections(t *testing.T) {
	if mergeConnections([]*Connections{nil, nil}) != nil {
		t.Error("no shard had connections: want null")
	}
	a := &Connections{KeepAlive: true, Opened: 4, Requests: 100, Reused: 96, PeakOpen: 4, ClosedByCut: 1}
	b := &Connections{KeepAlive: true, Opened: 6, Requests: 120, Reused: 114, PeakOpen: 5, ClosedByServer: 2, ClosedByClient: 3}
	got := *mergeConnections([]*Connections{a, nil, b})
	want := Connections{KeepAlive: true, Opened: 10, Requests: 220, Reused: 210, PeakOpen: 9, ClosedByCut: 1, ClosedByServer: 2, ClosedByClient: 3}
	if got != want {
		t.Errorf("merged %+v, want %+v", got, want)
	}
}
