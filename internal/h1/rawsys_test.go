package h1

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestLargeBodiesBothWays: a request body larger than the socket's
// buffers, which its server reads slowly (the connection's writes meet a
// full buffer and wait for room), and a response of several MiB (read
// after its first chunk through the connection's reader) arrive whole.
// Without the race detector these go through the raw system calls of
// rawsys_linux.go; with it, through the syscall package's.
func TestLargeBodiesBothWays(t *testing.T) {
	const size = 8 << 20
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		h := sha256.New()
		buf := make([]byte, 64<<10)
		for {
			n, err := req.Body.Read(buf)
			h.Write(buf[:n])
			if err != nil {
				break
			}
			time.Sleep(100 * time.Microsecond) // a slow reader: the client's buffer fills
		}
		sum := h.Sum(nil)
		resp := bytes.Repeat(sum, size/len(sum))
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: "+strconv.Itoa(len(resp))+"\r\n\r\n")
		conn.Write(resp)
	})
	body := bytes.Repeat([]byte("readbench "), size/10)
	want := sha256.Sum256(body)
	u, _ := url.Parse(srv.url())
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	resp, err := tr.Post(context.Background(), &Post{URL: u, Body: body, Deadline: time.Now().Add(30 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, bytes.Repeat(want[:], size/len(want))) {
		t.Fatalf("the response's %d bytes are not %d times the request's sha256: the request or the response was cut", len(got), size/len(want))
	}
}

// TestWriteToAClosedServer: a request to a server that closed its side
// fails with the connection's error (EPIPE or a reset), never a signal
// that ends the process, and never a wait.
func TestWriteToAClosedServer(t *testing.T) {
	closed := make(chan struct{})
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		time.Sleep(100 * time.Millisecond) // the client's dial is done
		conn.(*net.TCPConn).SetLinger(0)   // a reset, at once
		conn.Close()
		close(closed)
	})
	u, _ := url.Parse(srv.url())
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	c, err := tr.get(context.Background(), hostPort(u.Host))
	if err != nil {
		t.Fatal(err)
	}
	<-closed
	time.Sleep(50 * time.Millisecond) // the reset has arrived
	big := bytes.Repeat([]byte("x"), 4<<20)
	_, err = c.out.Write(big)
	if err == nil {
		_, err = c.out.Write(big) // the first may have been taken by the kernel's buffer
	}
	if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("writing to a closed server: %v, want EPIPE or ECONNRESET", err)
	}
	c.close(closedByClient)
}
