package h1

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"reflect"
	"testing"
)

// headSeeds are heads simpleHead reads and heads it must leave to
// http.ReadResponse.
var headSeeds = []string{
	"HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Type: application/json\r\nDate: Tue, 01 Dec 2026 20:55:49 GMT\r\n\r\nbody",
	"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.1 404 Not Found\r\nContent-Length:1\r\nX-A: 1\r\nX-A:  2 \r\n\r\nx",
	"HTTP/1.1 200 OK\r\nConnection: Keep-Alive\r\nKeep-Alive: timeout=5\r\nContent-Length: 2\r\n\r\nokEXTRA",
	"HTTP/1.1 200\r\nContent-Length: 3\r\n\r\nabc",
	"HTTP/1.1 200 \r\nContent-Length: 3\r\n\r\nab",
	"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
	"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n\r\n",
	"HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nx",
	"HTTP/1.1 200 OK\r\nContent-Length: 01\r\n\r\nx",
	"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.1 200 OK\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
	"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.1 200 OK\r\nPragma: no-cache\r\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.1 200 OK\r\nX-\xff: 1\r\nContent-Length: 1\r\n\r\nx",
	"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n",
}

// TestSimpleHeadReadsPlainHeads: the plain heads are read by simpleHead,
// the others left whole to http.ReadResponse.
func TestSimpleHeadReadsPlainHeads(t *testing.T) {
	for i, s := range headSeeds {
		br := bufio.NewReader(bytes.NewReader([]byte(s)))
		br.Peek(1)
		resp, _ := simpleHead(br, mustPost())
		if got, want := resp != nil, i < 7; got != want {
			t.Errorf("%q: read by simpleHead %v, want %v", s, got, want)
		}
	}
}

// FuzzSimpleHead: whatever simpleHead reads, http.ReadResponse reads the
// same way — status, version, headers, length, close, the body's bytes
// and how it ends — and what it does not read it leaves unread.
func FuzzSimpleHead(f *testing.F) {
	for _, s := range headSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		br := bufio.NewReaderSize(bytes.NewReader(data), bufSize)
		br.Peek(1) // the head in the buffer, as roundTrip has it
		buffered := br.Buffered()
		req := mustPost()
		got, n := simpleHead(br, req)
		if got == nil {
			if br.Buffered() != buffered {
				t.Fatalf("%q: simpleHead refused it and consumed bytes", data)
			}
			return
		}
		want, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(data)), req)
		if err != nil {
			t.Fatalf("%q: simpleHead read it, http.ReadResponse: %v", data, err)
		}
		if got.Status != want.Status || got.StatusCode != want.StatusCode || got.Proto != want.Proto ||
			got.ProtoMajor != want.ProtoMajor || got.ProtoMinor != want.ProtoMinor || got.ContentLength != want.ContentLength ||
			got.Close != want.Close || !reflect.DeepEqual(got.Header, want.Header) || want.TransferEncoding != nil || want.Trailer != nil {
			t.Fatalf("%q:\nsimpleHead %+v\nReadResponse %+v", data, got, want)
		}
		gotBody, gotErr := io.ReadAll(&lengthBody{br: br, n: n})
		wantBody, wantErr := io.ReadAll(want.Body)
		if !bytes.Equal(gotBody, wantBody) || !errors.Is(gotErr, wantErr) && gotErr != wantErr {
			t.Fatalf("%q: body %q %v, ReadResponse's %q %v", data, gotBody, gotErr, wantBody, wantErr)
		}
		if (n == 0) != (want.Body == http.NoBody) {
			t.Fatalf("%q: length %d, ReadResponse's body %T", data, n, want.Body)
		}
	})
}

func mustPost() *http.Request {
	req, err := http.NewRequest(http.MethodPost, "http://h/mcp", nil)
	if err != nil {
		panic(err)
	}
	return req
}

// TestHeadCacheReadsEachHeadAsItIs: heads read one after another through
// one connection's headCache — the same, a line changed, lines more or
// fewer, a head refused in between — each read as http.ReadResponse
// reads it, whatever the one before held.
func TestHeadCacheReadsEachHeadAsItIs(t *testing.T) {
	heads := []string{
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nDate: Tue, 01 Dec 2026 20:55:49 GMT\r\n\r\nbody",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nDate: Tue, 01 Dec 2026 20:55:49 GMT\r\n\r\nbody",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nDate: Tue, 01 Dec 2026 20:55:50 GMT\r\n\r\nbody",
		"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nno",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nX-A: 1\r\nX-A: 2\r\nX-B: 3\r\nX-C: 4\r\nX-D: 5\r\nX-E: 6\r\nX-F: 7\r\nX-G: 8\r\n\r\nbody",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nX-A: 1\r\nX-A: 2\r\nX-B: 3\r\nX-C: 4\r\nX-D: 5\r\nX-E: 6\r\nX-F: 7\r\nX-G: 9\r\n\r\nbody",
		"HTTP/1.1 200\r\nContent-Length: 4\r\n\r\nbody",
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nDate: Tue, 01 Dec 2026 20:55:49 GMT\r\n\r\nbody",
	}
	// A Post's responses (req nil) share the connection's Header, read
	// again in place when a head has the names of the one before.
	for _, post := range []bool{false, true} {
		var hc headCache
		for _, s := range append(heads, heads...) {
			br := bufio.NewReader(bytes.NewReader([]byte(s)))
			br.Peek(1)
			req := mustPost()
			if post {
				req = nil
			}
			got, _ := plainHead(br, req, &hc)
			want, err := http.ReadResponse(bufio.NewReader(bytes.NewReader([]byte(s))), mustPost())
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				if want.TransferEncoding == nil {
					t.Errorf("post %v, %q: refused", post, s)
				}
				continue
			}
			if got.resp.Status != want.Status || got.resp.StatusCode != want.StatusCode || !reflect.DeepEqual(got.resp.Header, want.Header) {
				t.Errorf("post %v, %q:\nread %q %v\nwant %q %v", post, s, got.resp.Status, got.resp.Header, want.Status, want.Header)
			}
		}
	}
}

// FuzzHeadCache: heads read one after another through one connection's
// headCache, for a Post (the connection's Header) and for a request,
// are each read as simpleHead reads it alone (which FuzzSimpleHead holds
// to http.ReadResponse), whatever the heads before held.
func FuzzHeadCache(f *testing.F) {
	for i, s := range headSeeds {
		f.Add([]byte(s), []byte(headSeeds[(i+1)%len(headSeeds)]))
	}
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-A: 1\r\nX-B: 2\r\n\r\nx"), []byte("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-B: 1\r\nX-B: 2\r\n\r\nx"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nDate: a\r\n\r\nx"), []byte("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nDate: b\r\n\r\nx"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		read := func(data []byte, req *http.Request, hc *headCache) (*plainResponse, int64, int) {
			br := bufio.NewReaderSize(bytes.NewReader(data), bufSize)
			br.Peek(1)
			p, n := plainHead(br, req, hc)
			return p, n, br.Buffered()
		}
		for _, post := range []bool{false, true} {
			var hc headCache
			for _, data := range [][]byte{a, b, a, b, b} {
				var req *http.Request
				if !post {
					req = mustPost()
				}
				got, gotN, gotLeft := read(data, req, &hc)
				want, wantN, wantLeft := read(data, req, nil)
				if (got == nil) != (want == nil) || gotN != wantN || gotLeft != wantLeft {
					t.Fatalf("post %v, %q after %q: read %v (%d, %d left), alone %v (%d, %d left)", post, data, a, got != nil, gotN, gotLeft, want != nil, wantN, wantLeft)
				}
				if got == nil {
					continue
				}
				g, w := got.resp, want.resp
				if g.Status != w.Status || g.StatusCode != w.StatusCode || g.ContentLength != w.ContentLength || !reflect.DeepEqual(g.Header, w.Header) {
					t.Fatalf("post %v, %q after %q:\nread %q %v\nalone %q %v", post, data, a, g.Status, g.Header, w.Status, w.Header)
				}
			}
		}
	})
}

// TestLengthBodyEndsWithItsLastBytes: the read that returns a body's
// last bytes returns io.EOF with them, as net/http's body does, so that
// the connection is released without one more Read.
func TestLengthBodyEndsWithItsLastBytes(t *testing.T) {
	b := &lengthBody{br: bufio.NewReader(bytes.NewReader([]byte("bodyNEXT"))), n: 4}
	p := make([]byte, 16)
	if n, err := b.Read(p[:2]); n != 2 || err != nil {
		t.Fatalf("first read: %d %v, want 2 <nil>", n, err)
	}
	if n, err := b.Read(p); n != 2 || err != io.EOF || string(p[:n]) != "dy" {
		t.Fatalf("last read: %d %q %v, want 2 \"dy\" EOF", n, p[:n], err)
	}
}

// TestHeadCacheCopiesNothingForTheSameHead: a connection's head equal
// to the one before is read without a copy of it (the response, its
// header map and the map's group are all that is allocated; for a Post,
// whose responses have the connection's Header, the response alone).
func TestHeadCacheCopiesNothingForTheSameHead(t *testing.T) {
	const s = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4\r\nMcp-Session-Id: 1868a90c\r\n\r\nbody"
	data := []byte(s)
	var hc headCache
	r := bytes.NewReader(data)
	br := bufio.NewReader(r)
	for _, c := range []struct {
		req  *http.Request
		most float64
	}{{mustPost(), 3}, {nil, 1}} {
		read := func() {
			r.Reset(data)
			br.Reset(r)
			br.Peek(1)
			if p, _ := plainHead(br, c.req, &hc); p == nil || p.resp.Header.Get("Mcp-Session-Id") != "1868a90c" {
				t.Fatalf("not read: %v", p)
			}
		}
		read()
		if n := testing.AllocsPerRun(100, read); n > c.most {
			t.Errorf("request %v: %v allocations for a head read before, want at most %v", c.req != nil, n, c.most)
		}
	}
}
