package runner

import (
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

// TestReach: servers are told the client is the tool a result names, the
// embedded command and the handshake limit are the command's.
func TestReach(t *testing.T) {
	o := Reach([]string{"/bin/readbench", "serve", "--stdio"}, results.Tool{Name: "readbench", Version: "1.2.3"}, 5*time.Second)
	if o.Client.Name != "readbench" || o.Client.Version != "1.2.3" {
		t.Errorf("clientInfo %+v", o.Client)
	}
	if len(o.EmbeddedCommand) != 3 || o.EmbeddedCommand[1] != "serve" || o.HandshakeTimeout != 5*time.Second {
		t.Errorf("options %+v", o)
	}
	if limit, _ := Reach(nil, results.Tool{}, 0).HandshakeLimit(); limit != 0 {
		t.Errorf("no limit given: %s, want the default left to the client", limit)
	}
}
