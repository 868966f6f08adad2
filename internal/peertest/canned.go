package peertest

import (
	"bufio"
	"bytes"
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

// Canned answers every POST on loopback with the same 2026-07-28 result,
// under the request's own id, parsing no more than the request's framing
// and its id: what a benchmark of the client or the driver measures is
// then readbench (the server allocates nothing per request). A
// server/discover is answered as a 2026-07-28 server answers it, so that
// a session can be connected to it. It returns the URL; the listener
// closes with tb.
func Canned(tb testing.TB, result []byte) string {
	return ServeConns(tb, func(c net.Conn) { serveCanned(c, result) }) + "/mcp"
}

// ServeConns accepts connections on a loopback port until tb ends, each
// handled by serve on a goroutine of its own (all waited for), and
// returns the listener's http:// origin.
func ServeConns(tb testing.TB, serve func(net.Conn)) string {
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

// discovered is Canned's server/discover result.
var discovered = []byte(`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"canned","version":"1"}},"resultType":"complete",` +
	`"supportedVersions":["` + protocol.V20260728 + `"],"capabilities":{"resources":{}},"ttlMs":0,"cacheScope":"public"}`)

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
		answer := result
		if bytes.Contains(body, []byte(`"method":"`+protocol.MethodDiscover+`"`)) {
			answer = discovered
		}
		size := len(`{"jsonrpc":"2.0","id":,"result":}`) + len(id) + len(answer)
		resp = fmt.Appendf(resp[:0], "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size)
		resp = protocol.AppendResult(resp, id, answer)
		if _, err := c.Write(resp); err != nil {
			return
		}
	}
}
