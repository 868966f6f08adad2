package report

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/results"
)

// TestConnectionsTextSaysTheHTTP2Split: over HTTP/2 the connections line
// says the streams, the server's limit, what waited or was refused, and
// the resets and GOAWAYs by who sent them; over HTTP/1.1 it says none of
// it.
func TestConnectionsTextSaysTheHTTP2Split(t *testing.T) {
	c := &results.Connections{KeepAlive: true, Opened: 2, Requests: 80, Reused: 78, PeakOpen: 2}
	if got := connectionsText(c); strings.Contains(got, "HTTP/2") {
		t.Errorf("HTTP/1.1: %q says HTTP/2", got)
	}
	c.HTTP2 = &conns.HTTP2{Streams: 80, PeakStreams: 9, MaxConcurrentStreams: 250, Waited: 3, Refused: 1,
		ResetsByClient: 12, ResetsByServer: 2, GoAwayByServer: 1}
	got := connectionsText(c)
	want := "; HTTP/2: 80 streams, at most 9 at once (the server's limit 250), 3 waited for a stream, 1 refused; " +
		"RST_STREAM 12 by readbench, 2 by the server; GOAWAY 1 by the server"
	if !strings.HasSuffix(got, want) {
		t.Errorf("got %q\nwant it to end %q", got, want)
	}
	c.HTTP2.MaxConcurrentStreams = 0
	if got := connectionsText(c); !strings.Contains(got, "(the server advertised no limit)") {
		t.Errorf("no limit advertised: %q", got)
	}
}
