package simserver

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// Benchmarks of whole reads through each transport, from the request
// written to the last byte of the answer read by a client that does not
// decode it (as the driver does not). SetBytes is the decoded size, so MB/s
// is disk bytes served per second; wire-MB/s counts the bytes on the wire.

func benchReads() []struct{ name, uri string } {
	return []struct{ name, uri string }{
		{"png-1.8MB", "sim:///shot.png?mime=image/png&size=1834208"},
		{"md-8KiB", "sim:///guide.md?mime=text/markdown&size=8KiB"},
		{"md-1KiB", "sim:///compare/text.md?mime=text/markdown&size=1024"},
	}
}

func BenchmarkReadStdio(b *testing.B) {
	for _, br := range benchReads() {
		b.Run(br.name, func(b *testing.B) {
			s := New(Options{})
			serverIn, in := io.Pipe()
			out, serverOut := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- s.ServeStdio(context.Background(), serverIn, serverOut) }()
			r := bufio.NewReaderSize(out, 1<<20)
			line := request(b, 1, protocol.MethodResourcesRead, readParams(br.uri, protocol.V20260728)) + "\n"
			var wire int64
			roundTrip := func() {
				if _, err := io.WriteString(in, line); err != nil {
					b.Fatal(err)
				}
				for {
					chunk, err := r.ReadSlice('\n')
					wire += int64(len(chunk))
					if err == bufio.ErrBufferFull {
						continue
					}
					if err != nil {
						b.Fatal(err)
					}
					break
				}
			}
			roundTrip() // warm the cache: a benchmark reads the same URIs again and again
			wire = 0
			b.SetBytes(benchSize(b, br.uri))
			b.ResetTimer()
			for range b.N {
				roundTrip()
			}
			b.StopTimer()
			b.ReportMetric(float64(wire)/b.Elapsed().Seconds()/1e6, "wire-MB/s")
			in.Close()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
		})
	}
}

func BenchmarkReadHTTP(b *testing.B) {
	for _, br := range benchReads() {
		for _, sse := range []bool{false, true} {
			name := br.name + "/json"
			if sse {
				name = br.name + "/sse"
			}
			b.Run(name, func(b *testing.B) {
				url := startHTTPB(b, New(Options{SSE: sse}))
				body := request(b, 1, protocol.MethodResourcesRead, readParams(br.uri, protocol.V20260728))
				client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
				var wire int64
				b.SetBytes(benchSize(b, br.uri))
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					var n int64
					for pb.Next() {
						req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
						req.Header.Set("Content-Type", protocol.ContentTypeJSON)
						req.Header.Set("Accept", protocol.AcceptBoth)
						for k, v := range modernHeaders(protocol.MethodResourcesRead, br.uri) {
							req.Header.Set(k, v)
						}
						resp, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						c, _ := io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						n += c
					}
					addInt64(&wire, n)
				})
				b.StopTimer()
				b.ReportMetric(float64(wire)/b.Elapsed().Seconds()/1e6, "wire-MB/s")
			})
		}
	}
}

// BenchmarkEncodeContents is the cost of a cache miss: generating and
// encoding a read's contents.
func BenchmarkEncodeContents(b *testing.B) {
	g := newGenerator()
	for _, br := range benchReads() {
		b.Run(br.name, func(b *testing.B) {
			spec, err := ParseSimURI(br.uri)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(spec.Size)
			for range b.N {
				g.encodeContents(spec)
			}
		})
	}
}

func benchSize(b *testing.B, uri string) int64 {
	s, err := ParseSimURI(uri)
	if err != nil {
		b.Fatal(err)
	}
	return s.Size
}

func addInt64(p *int64, n int64) { atomic.AddInt64(p, n) }
