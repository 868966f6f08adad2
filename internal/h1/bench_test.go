package h1

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRoundTrip is one POST of a read-sized request and a 1.4 KB
// answer over loopback, through h1 and through net/http's Transport, 16
// in flight: the CPU per request of each (the server's included, the same
// for both).
func BenchmarkRoundTrip(b *testing.B) {
	answer := bytes.Repeat([]byte("a"), 1400)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header()["Content-Type"] = []string{"application/json"}
		w.Write(answer)
	}))
	defer srv.Close()
	body := strings.Repeat("x", 300)
	for _, c := range []struct {
		name string
		rt   http.RoundTripper
	}{
		{"h1", &Transport{}},
		{"net-http", &http.Transport{MaxIdleConnsPerHost: 1024, DisableCompression: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			defer c.rt.(interface{ CloseIdleConnections() }).CloseIdleConnections()
			b.SetParallelism(8) // 16 in flight on 2 cores
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
					req.Header["Content-Type"] = []string{"application/json"}
					resp, err := c.rt.RoundTrip(req)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := io.Copy(io.Discard, resp.Body); err != nil {
						b.Fatal(err)
					}
					resp.Body.Close()
				}
			})
		})
	}
}

// BenchmarkPlainHead is reading the head readbench's own server sends
// for a read (the same on every response of a connection but for its
// Date), through the connection's headCache, and reading its body's
// bookkeeping to the end: the parsing cost per response a closed-loop
// run pays.
func BenchmarkPlainHead(b *testing.B) {
	const head = "HTTP/1.1 200 OK\r\nContent-Length: 1385\r\nContent-Type: application/json\r\nDate: Tue, 01 Dec 2026 23:55:25 GMT\r\n\r\n"
	data := []byte(head + strings.Repeat("a", 1385))
	r := bytes.NewReader(data)
	br := bufio.NewReaderSize(r, bufSize)
	var hc headCache
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(data)
		br.Reset(r)
		br.Peek(1)
		p, n := plainHead(br, nil, &hc)
		if p == nil || n != 1385 {
			b.Fatal("not read")
		}
	}
}
