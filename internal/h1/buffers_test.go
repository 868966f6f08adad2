package h1

import (
	"bufio"
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBuffersOnlyWhileBytesMove: answers that arrive late and in pieces
// (the head split, the body larger than a buffer) are read whole, and a
// connection back in the pool holds no reader, no first chunk and no
// request body: an idle connection, like one waiting for its answer,
// costs no buffer.
func TestBuffersOnlyWhileBytesMove(t *testing.T) {
	big := strings.Repeat("b", 3*bufSize+17)
	pieces := [][]string{
		{"HTTP/1.1 2", "00 OK\r\nContent-Le", "ngth: 4\r\n\r\nbo", "dy"},
		{"HTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(len(big)) + "\r\n\r\n" + big[:100], big[100:]},
	}
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		for i := 0; readRequest(br); i++ {
			for _, p := range pieces[i%len(pieces)] {
				time.Sleep(5 * time.Millisecond) // each piece its own segment
				if _, err := io.WriteString(conn, p); err != nil {
					return
				}
			}
		}
	})
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	for i, want := range []string{"body", big, "body"} {
		resp, err := tr.RoundTrip(post(t, context.Background(), srv.url(), strings.Repeat("x", 5000)))
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if got, err := readAll(resp); got != want || err != nil {
			t.Fatalf("request %d: %d bytes, %v; want %d", i, len(got), err, len(want))
		}
		tr.mu.Lock()
		for _, cs := range tr.idle {
			for _, c := range *cs {
				if c.br != nil || c.lim.first != nil || c.lim.firstBuf != nil {
					t.Errorf("request %d: an idle connection holds a buffer (reader %v, first chunk %v)", i, c.br != nil, c.lim.firstBuf != nil)
				}
			}
		}
		tr.mu.Unlock()
	}
	if n := srv.accepts.Load(); n != 1 {
		t.Errorf("%d connections for 3 requests, want 1", n)
	}
}

// TestRequestBodyReleasedOnceWritten: the body is kept for a request
// sent again, and given back once written, once.
func TestRequestBodyReleasedOnceWritten(t *testing.T) {
	b, err := readBody(strings.NewReader(strings.Repeat("x", 3000)))
	if err != nil || len(b.bytes()) != 3000 {
		t.Fatalf("%d bytes, %v", len(b.bytes()), err)
	}
	b.release()
	if b.bytes() != nil {
		t.Error("a released body still has its bytes")
	}
	b.release() // a second release gives nothing back twice
	if e, err := readBody(strings.NewReader("")); err != nil || len(e.bytes()) != 0 {
		t.Errorf("empty body: %q, %v", e.bytes(), err)
	}
}
