package client

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// headServer answers every POST with a read's result under the request's
// id and sends each request's head (its request line, then its header
// lines sorted) and body on heads.
func headServer(t *testing.T, heads chan<- string) string {
	t.Helper()
	return peertest.ServeConns(t, func(c net.Conn) {
		defer c.Close()
		br := bufio.NewReader(c)
		for {
			var lines []string
			n := 0
			for {
				l, err := br.ReadString('\n')
				if err != nil {
					return
				}
				if l == "\r\n" {
					break
				}
				if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, "Content-Length") {
					n, _ = strconv.Atoi(strings.TrimSpace(v))
				}
				lines = append(lines, l)
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(br, body); err != nil {
				return
			}
			slices.Sort(lines[1:])
			heads <- strings.Join(lines, "") + string(body)
			_, rest, _ := bytes.Cut(body, []byte(`"id":`))
			id, _, _ := bytes.Cut(rest, []byte(`,`))
			msg := protocol.AppendResult(nil, id, []byte(`{"contents":[{"uri":"sim:///x","mimeType":"text/plain","text":"hi"}]}`))
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(msg), msg)
		}
	}) + "/mcp?k=v"
}

// TestLightPostSendsWhatRequestSends: a read sent as an h1.Post carries
// the same request line, headers and body as the http.Request newRequest
// builds for it, in both eras, with and without a session id and
// workload headers; a workload header the transport sets itself sends
// reads the http.Request way.
func TestLightPostSendsWhatRequestSends(t *testing.T) {
	heads := make(chan string, 1)
	url := headServer(t, heads)
	for _, c := range []struct {
		name    string
		version string
		sid     string
		headers http.Header
		light   bool
	}{
		{"modern", protocol.V20260728, "", nil, true},
		{"modern-headers", protocol.V20260728, "", http.Header{"X-Tenant": {"a", "b"}, "Authorization": {"Bearer t"}, "x-raw": {""}}, true},
		{"legacy-session", protocol.V20250618, "sess-1", nil, true},
		{"legacy-old", protocol.V20250326, "sess-2", http.Header{"X-Tenant": {"a"}}, true},
		{"own-header", protocol.V20260728, "", http.Header{"User-Agent": {"custom"}}, false},
		{"own-header-lower", protocol.V20260728, "", http.Header{"mcp-name": {"x"}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			read := func(light bool) string {
				tr := newHTTPTransport(url, c.headers, 0)
				if (tr.fixed.lines != nil) != c.light {
					t.Fatalf("postLines %q, want light %v", tr.fixed.lines, c.light)
				}
				if !light {
					tr.fixed.lines = nil
				}
				modern := protocol.IsModern(c.version)
				tr.setEra(c.version, modern)
				tr.sessionID = c.sid
				s := &Session{t: tr, modern: modern, version: c.version, client: Implementation{Name: "readbench", Version: "test"}}
				defer tr.client.CloseIdleConnections()
				if _, err := s.ReadDocument(context.Background(), "sim:///x y?size=1", ReadSpec{}); err != nil {
					t.Fatal(err)
				}
				return <-heads
			}
			if got, want := read(true), read(false); got != want {
				t.Errorf("as an h1.Post:\n%s\nas an http.Request:\n%s", got, want)
			}
		})
	}
}

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
// leaves a little room.
func TestReadHTTPAllocations(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("allocation count (-short, or -race, which allocates)")
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
