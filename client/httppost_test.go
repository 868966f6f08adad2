package client

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
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
