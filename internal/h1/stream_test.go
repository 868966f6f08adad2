package h1

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
)

// TestEventStreamReadsThroughASmallBuffer: an event stream's response
// (chunked, its first event in the head's segment) is read through a
// reader of streamBufSize bytes once its head is parsed, every byte
// whole and in order (the first event, then one bigger than the
// buffer); AwaitBody returns when the next event has come; and once the
// stream ends the connection carries the next request, through a reader
// of the pool's size (the small one is not pooled).
func TestEventStreamReadsThroughASmallBuffer(t *testing.T) {
	first := "data: {\"first\":1}\n\n"
	big := "data: " + strings.Repeat("b", 3*streamBufSize) + "\n\n"
	more := make(chan struct{})
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		if !readRequest(br) {
			return
		}
		fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(first), first)
		<-more
		fmt.Fprintf(conn, "%x\r\n%s\r\n0\r\n\r\n", len(big), big)
		if !readRequest(br) {
			return
		}
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	})
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(post(t, context.Background(), srv.url(), "listen"))
	if err != nil {
		t.Fatal(err)
	}
	b := resp.Body.(*bodyReader)
	if size := b.c.br.Size(); size != streamBufSize {
		t.Fatalf("an event stream reads through a %d-byte buffer, want %d", size, streamBufSize)
	}
	got := make([]byte, len(first))
	if _, err := io.ReadFull(resp.Body, got); err != nil || string(got) != first {
		t.Fatalf("first event %q, %v; want %q", got, err, first)
	}
	close(more)
	AwaitBody(resp.Body)
	if b.c.br.Buffered() == 0 && len(b.c.lim.first) == 0 && b.c.raw != nil {
		t.Fatal("AwaitBody returned with nothing to read")
	}
	rest, err := readAll(resp)
	if err != nil || rest != big {
		t.Fatalf("the rest: %d bytes, %v; want %d", len(rest), err, len(big))
	}
	resp, err = tr.RoundTrip(post(t, context.Background(), srv.url(), "read"))
	if err != nil {
		t.Fatal(err)
	}
	if size := resp.Body.(*bodyReader).c.br.Size(); size != bufSize {
		t.Errorf("the next response reads through a %d-byte buffer, want %d", size, bufSize)
	}
	if got, err := readAll(resp); got != "ok" || err != nil {
		t.Fatalf("next response %q, %v", got, err)
	}
	if n := srv.accepts.Load(); n != 1 {
		t.Errorf("%d connections, want 1: the stream's connection carries the next request", n)
	}
}

// TestAwaitBodyKeepsTheWaitsError: a stream whose request's context
// ends while it waits in AwaitBody reads the context's error next, as a
// read that waited itself would have, and its connection is not reused.
func TestAwaitBodyKeepsTheWaitsError(t *testing.T) {
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		if !readRequest(br) {
			return
		}
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		br.ReadByte() // until the client closes
	})
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := tr.RoundTrip(post(t, ctx, srv.url(), "listen"))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	AwaitBody(resp.Body)
	if _, err := resp.Body.Read(make([]byte, 8)); !errors.Is(err, context.Canceled) {
		t.Fatalf("read after the wait: %v, want context.Canceled", err)
	}
	resp.Body.Close()
}
