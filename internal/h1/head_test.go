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
	var hc headCache
	for _, s := range heads {
		br := bufio.NewReader(bytes.NewReader([]byte(s)))
		br.Peek(1)
		req := mustPost()
		got, _ := plainHead(br, req, &hc)
		want, err := http.ReadResponse(bufio.NewReader(bytes.NewReader([]byte(s))), req)
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			if want.TransferEncoding == nil {
				t.Errorf("%q: refused", s)
			}
			continue
		}
		if got.resp.Status != want.Status || got.resp.StatusCode != want.StatusCode || !reflect.DeepEqual(got.resp.Header, want.Header) {
			t.Errorf("%q:\nread %q %v\nwant %q %v", s, got.resp.Status, got.resp.Header, want.Status, want.Header)
		}
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
