package client

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// cannedServer answers every POST on loopback with the same 2026-07-28
// result, under the request's own id, parsing no more than the request's
// framing and its id: what a client benchmark measures is then the client
// (the server allocates nothing per request). It returns the URL; the
// listener closes with b.
func cannedServer(b testing.TB, result []byte) string {
	return serveConns(b, func(c net.Conn) { serveCanned(c, result) }) + "/mcp"
}

// serveConns accepts connections on a loopback port until tb ends, each
// handled by serve on a goroutine of its own (all waited for), and
// returns the listener's http:// origin.
func serveConns(tb testing.TB, serve func(net.Conn)) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	tb.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { serve(c) })
		}
	})
	return "http://" + ln.Addr().String()
}

func serveCanned(c net.Conn, result []byte) {
	defer c.Close()
	r := textproto.NewReader(bufio.NewReader(c))
	var body, resp []byte
	for {
		if _, err := r.ReadLine(); err != nil {
			return
		}
		n := 0
		for {
			l, err := r.ReadLine()
			if err != nil {
				return
			}
			if l == "" {
				break
			}
			if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, "Content-Length") {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		body = slices.Grow(body[:0], n)[:n]
		if _, err := io.ReadFull(r.R, body); err != nil {
			return
		}
		_, rest, _ := bytes.Cut(body, []byte(`"id":`))
		id, _, _ := bytes.Cut(rest, []byte(`,`))
		size := len(`{"jsonrpc":"2.0","id":,"result":}`) + len(id) + len(result)
		resp = fmt.Appendf(resp[:0], "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
		resp = protocol.AppendResult(resp, id, result)
		if _, err := c.Write(resp); err != nil {
			return
		}
	}
}

// BenchmarkSessionReadHTTP is one whole resources/read of a 1 KiB text
// over Streamable HTTP in the 2026-07-28 era, 16 in flight on one
// session, against a server that costs next to nothing: the client's CPU
// and allocations per read (building the request, h1's round trip, the
// scan of the answer, the Answer).
func BenchmarkSessionReadHTTP(b *testing.B) {
	const uri = "sim:///compare/text.md?mime=text/markdown&size=1024"
	answer := (fmt.Appendf(nil,
		`{"resultType":"complete","ttlMs":0,"cacheScope":"public","contents":[{"uri":%q,"mimeType":"text/markdown","text":%q}]}`,
		uri, strings.Repeat("lorem ipsum ", 1024/12)))
	url := cannedServer(b, answer)
	s := &Session{
		t:      newHTTPTransport(url, nil, 0),
		modern: true, version: protocol.V20260728,
		client: Implementation{Name: "readbench", Version: "bench"},
	}
	defer s.Close()
	b.SetParallelism(8) // 16 in flight on 2 cores
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			a, err := s.ReadDocument(context.Background(), uri, ReadSpec{})
			if err != nil || a.Kind != OK {
				b.Fatal(err, a.Kind, a.Detail)
			}
		}
	})
}
