package simserver

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
)

// TestIdleStreamMemory opens many idle listen streams from raw
// connections (no goroutine or buffer on the client's side once the ack
// is read) and reports what each costs the server: heap and stack bytes,
// and goroutines (net/http's connection goroutine and its background
// reader; the server adds none). READBENCH_STREAMS sets how many (default
// 1,000; 10,000 needs 20,000 file descriptors, both ends being here).
// Nothing is timed; the goroutine count is the only bound asserted.
func TestIdleStreamMemory(t *testing.T) {
	if testing.Short() && !needs.InCI() {
		t.Skip("opens 1,000 connections; without -short (or with CI set) it runs")
	}
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("READBENCH_STREAMS")); err == nil && v > 0 {
		n = v
	}
	s := New(Options{KeepAlive: -1})
	defer s.Close()
	hs := peertest.ServeLocalWith(t, s.Handler(), func(h *http.Server) { h.ErrorLog = nil })
	addr := strings.TrimPrefix(hs.URL, "http://")

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap0, stack0, g0 := ms.HeapInuse, ms.StackInuse, runtime.NumGoroutine()

	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
		waitStats(t, s, "every stream closed", func(st Stats) bool { return st.Subscriptions.Listens == 0 })
	}()
	for i := range n {
		c := openRawListen(t, addr, i+1, fmt.Sprintf("sim:///idle/%d?mime=text/plain&size=10", i%100))
		conns = append(conns, c)
	}
	waitStats(t, s, "every stream open", func(st Stats) bool { return st.Subscriptions.Listens == int64(n) })
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap, stack, g := ms.HeapInuse-heap0, ms.StackInuse-stack0, runtime.NumGoroutine()-g0
	per := float64(heap+stack) / float64(n)
	t.Logf("%d idle listen streams: %.0f bytes each (heap %.0f, stacks %.0f), %.2f goroutines each",
		n, per, float64(heap)/float64(n), float64(stack)/float64(n), float64(g)/float64(n))
	if float64(g)/float64(n) > 2.5 {
		t.Errorf("%.2f goroutines per idle stream: want net/http's two at most", float64(g)/float64(n))
	}
	// A change reaches them all.
	ch, err := s.Touch("sim:///idle/7?mime=text/plain&size=10")
	if err != nil || ch.Notified != n/100 {
		t.Errorf("touch: %+v %v, want %d notified", ch, err, n/100)
	}
}

// openRawListen writes a listen POST on a fresh connection and reads the
// response head and the ack, leaving the connection idle.
func openRawListen(t *testing.T, addr string, id int, uri string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	body := request(t, id, protocol.MethodSubscriptionsListen, map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": []string{uri}},
		"_meta":         modernMeta(protocol.V20260728),
	})
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"%s: %s\r\n%s: %s\r\nContent-Length: %d\r\n\r\n%s",
		addr, protocol.HeaderProtocolVersion, protocol.V20260728, protocol.HeaderMethod, protocol.MethodSubscriptionsListen, len(body), body)
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReaderSize(c, 4096)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("listen %d: %v", id, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("listen %d: %s", id, resp.Status)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n') // the ack's event line, in the first chunk
	if err != nil || !strings.HasPrefix(line, "event: message") {
		t.Fatalf("listen %d: first line %q, %v", id, line, err)
	}
	_ = c.SetReadDeadline(time.Time{})
	return c
}
