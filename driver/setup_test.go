package driver

import (
	"testing"
	"time"

	"github.com/readbench/readbench/workload"
)

// TestHandshakeLimit: --handshake-timeout overrides the workload's
// load.handshake_timeout, and the error names whichever set the limit.
func TestHandshakeLimit(t *testing.T) {
	keyed := &workload.Workload{Load: workload.Load{HandshakeTimeout: 300 * time.Millisecond}}
	for _, c := range []struct {
		o     Options
		limit time.Duration
		setBy string
	}{
		{Options{Workload: &workload.Workload{}}, 0, "--handshake-timeout or load.handshake_timeout in the workload sets it"},
		{Options{Workload: keyed}, 300 * time.Millisecond, "load.handshake_timeout in the workload sets it, --handshake-timeout overrides it"},
		{Options{Workload: keyed, HandshakeTimeout: time.Second}, time.Second, "--handshake-timeout sets it"},
	} {
		if limit, setBy := c.o.HandshakeLimit(); limit != c.limit || setBy != c.setBy {
			t.Errorf("%v %v: got %v %q, want %v %q", c.o.HandshakeTimeout, c.o.Workload.Load.HandshakeTimeout, limit, setBy, c.limit, c.setBy)
		}
	}
}
