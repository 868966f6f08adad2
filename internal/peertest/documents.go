package peertest

import (
	"bytes"
	"fmt"
	"net/http"
	"time"
)

// Document is a plain HTTP document server for the tests of range+http
// reads: one document at /files/doc.txt, served with net/http's own Range
// support (RFC 9110, as any file server would), a HEAD of anything else
// naming the server "doc-test/1.2", and 404 for other paths. The fields
// let a test shape or break it.
type Document struct {
	Data  []byte
	Delay time.Duration // holds each GET, until the request ends
	// Lie shifts the first number of every Content-Range by one byte: a
	// server whose parts do not say what they hold.
	Lie bool
	// Headers are set on every answer (for example the sim: URIs header).
	Headers map[string]string
}

// ServeHTTP serves the document.
func (d *Document) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for k, v := range d.Headers {
		w.Header().Set(k, v)
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Server", "doc-test/1.2")
		return
	}
	if r.URL.Path != "/files/doc.txt" {
		http.Error(w, `{"code":"not_found"}`, http.StatusNotFound)
		return
	}
	if d.Delay > 0 {
		select {
		case <-time.After(d.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain")
	if d.Lie {
		w = &lyingWriter{ResponseWriter: w}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(d.Data))
}

// lyingWriter adds one to the first number of Content-Range.
type lyingWriter struct{ http.ResponseWriter }

func (l *lyingWriter) WriteHeader(code int) {
	h := l.Header()
	var a, b, n int64
	if _, err := fmt.Sscanf(h.Get("Content-Range"), "bytes %d-%d/%d", &a, &b, &n); err == nil {
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", a+1, b, n))
	}
	l.ResponseWriter.WriteHeader(code)
}

// DocBytes is n bytes of lower-case letters in a fixed pattern: a
// document whose every part differs from its neighbours.
func DocBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i*7%26)
	}
	return b
}
