package simserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// discardWriter is a ResponseWriter that keeps nothing: the handler's own
// cost, without net/http's connection handling and syscalls.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(s int)   { w.status = s }
func (w *discardWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// BenchmarkHandlerRead is one 2026-07-28 read through the Streamable HTTP
// handler alone (decode, era and header checks, the read, the answer
// written from the cache): what the simulated server spends per read on
// top of net/http. A 1 KiB text and a 1 MiB PNG, cache warm.
func BenchmarkHandlerRead(b *testing.B) {
	for _, c := range []struct{ name, uri string }{
		{"text-1KiB", "sim:///compare/text.md?mime=text/markdown&size=1024"},
		{"png-1MiB", "sim:///compare/shot.png?mime=image/png&size=1048576"},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := New(Options{}).Handler()
			body := request(b, 1, protocol.MethodResourcesRead, readParams(c.uri, protocol.V20260728))
			newReq := func() *http.Request {
				r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
				r.Header.Set("Content-Type", protocol.ContentTypeJSON)
				r.Header.Set("Accept", protocol.AcceptBoth)
				for k, v := range modernHeaders(protocol.MethodResourcesRead, c.uri) {
					r.Header.Set(k, v)
				}
				return r
			}
			w := &discardWriter{h: http.Header{}}
			h.ServeHTTP(w, newReq()) // warm the cache
			if w.status != 0 && w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
			b.SetBytes(int64(w.n))
			for b.Loop() { // building the request is counted: about 1 µs
				h.ServeHTTP(&discardWriter{h: http.Header{}}, newReq())
			}
		})
	}
}
