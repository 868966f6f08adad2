//go:build !race

package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// TestReadHTTPAllocations bounds the allocations of one whole read over
// plain http (the client and the canned server together), read as a run
// reads (under a shared context, with a read timeout): each one is CPU
// and, through the collector, more CPU on every read. 29 before h1.Post
// and the allocation cuts around it, 12 after, 9 once a connection's
// response heads share their strings and a Post's their Header (h1's
// headCache), 7 once the read timeout is the connection's deadline and
// the run's context is watched once per connection (a context, a timer
// and an AfterFunc per read before), 5 once a URI's encoding is kept
// and a whole read's Response shares its Answer's allocation; the bound
// leaves a little room. Built only without -race, whose instrumentation
// allocates (make test-norace runs it).
func TestReadHTTPAllocations(t *testing.T) {
	if testing.Short() && !needs.InCI() {
		t.Skip("allocation count (-short)")
	}
	const uri = "sim:///compare/text.md?mime=text/markdown&size=1024"
	answer := fmt.Appendf(nil,
		`{"resultType":"complete","ttlMs":0,"cacheScope":"public","contents":[{"uri":%q,"mimeType":"text/markdown","text":%q}]}`,
		uri, strings.Repeat("lorem ipsum ", 1024/12))
	s := &Session{
		t:      newHTTPTransport(peertest.Canned(t, answer), nil, 0),
		modern: true, version: protocol.V20260728,
		client: Implementation{Name: "readbench", Version: "bench"},
	}
	defer s.Close()
	// As a run reads: under the run's context, with a read timeout.
	run, cancel := context.WithCancel(context.Background())
	defer cancel()
	timeout := errors.New("read timeout")
	n := testing.AllocsPerRun(500, func() {
		a, err := s.ReadDocument(run, uri, ReadSpec{Deadline: time.Now().Add(time.Minute), DeadlineCause: timeout})
		if err != nil || a.Outcome != stats.OK {
			t.Fatal(err, a.Outcome, a.Detail)
		}
	})
	t.Logf("%.1f allocations per read", n)
	if n > 6 {
		t.Errorf("%.1f allocations per read, want at most 6", n)
	}
}
