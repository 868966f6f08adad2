package h1

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func post(t *testing.T, ctx context.Context, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// readAll reads a response's body and returns it with the error.
func readAll(resp *http.Response) (string, error) {
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return string(b), err
}

// TestRoundTripAgainstNetHTTP sends POSTs to a net/http server: the
// request arrives whole (line, headers, body), answers come back, and one
// connection carries them all.
func TestRoundTripAgainstNetHTTP(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Echo-Len", r.Header.Get("Content-Length"))
		w.Header().Set("X-UA", r.Header.Get("User-Agent"))
		w.Header().Set("X-Custom", strings.Join(r.Header.Values("X-Custom"), "|"))
		w.Header().Set("X-Path", r.URL.RequestURI())
		if r.URL.Query().Get("chunked") != "" {
			w.Write(b) // no Content-Length: flushed below, so chunked
			w.(http.Flusher).Flush()
			w.Write([]byte("!"))
			return
		}
		w.Write(append(b, '!'))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	for i, path := range []string{"/mcp", "/mcp?a=b%20c", "/mcp?chunked=1", "/mcp"} {
		req := post(t, context.Background(), srv.URL+path, "hello")
		req.Header.Add("X-Custom", "one")
		req.Header.Add("X-Custom", "two")
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		got, err := readAll(resp)
		if err != nil || got != "hello!" {
			t.Fatalf("request %d: body %q, %v", i, got, err)
		}
		h := resp.Header
		if h.Get("X-Echo-Len") != "5" || h.Get("X-UA") != "Go-http-client/1.1" || h.Get("X-Custom") != "one|two" || h.Get("X-Path") != path {
			t.Fatalf("request %d: the server saw %v", i, h)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for 4 sequential requests, want 1 (reuse)", n)
	}
}

// rawServer serves each accepted connection with serve and counts them.
type rawServer struct {
	ln      net.Listener
	accepts atomic.Int32
	wg      sync.WaitGroup
}

func newRawServer(t *testing.T, serve func(c net.Conn, br *bufio.Reader)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln}
	s.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepts.Add(1)
			s.wg.Go(func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				serve(c, bufio.NewReader(c))
			})
		}
	})
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *rawServer) url() string { return "http://" + s.ln.Addr().String() + "/mcp" }

// readRequest reads one request (head and Content-Length body) off br.
func readRequest(br *bufio.Reader) bool {
	req, err := http.ReadRequest(br)
	if err != nil {
		return false
	}
	_, err = io.Copy(io.Discard, req.Body)
	return err == nil
}

// TestFraming answers with each framing a server may use; the body is read
// whole, and the connection is reused exactly when the framing allows it.
func TestFraming(t *testing.T) {
	for _, c := range []struct {
		name, answer string
		reuse        bool
	}{
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody", true},
		{"chunked with trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nbo\r\n2\r\ndy\r\n0\r\nX-T: 1\r\n\r\n", true},
		{"100 continue first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody", true},
		{"103 early hints first", "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody", true},
		{"connection close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbody", false},
		{"until close", "HTTP/1.1 200 OK\r\n\r\nbody", false},
		{"http/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nbody", false},
		{"unsolicited bytes after", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbodyHTTP/1.1 200 OK\r\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
				for readRequest(br) {
					if _, err := io.WriteString(conn, c.answer); err != nil {
						return
					}
					if !c.reuse && !strings.Contains(c.name, "unsolicited") {
						return // close-delimited and close: the server ends it
					}
				}
			})
			tr := &Transport{}
			defer tr.CloseIdleConnections()
			for i := range 2 {
				resp, err := tr.RoundTrip(post(t, context.Background(), srv.url(), "x"))
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if got, err := readAll(resp); got != "body" || err != nil || resp.StatusCode != 200 {
					t.Fatalf("request %d: %d %q %v", i, resp.StatusCode, got, err)
				}
			}
			want := int32(2)
			if c.reuse {
				want = 1
			}
			if n := srv.accepts.Load(); n != want {
				t.Fatalf("%d connections for 2 requests, want %d", n, want)
			}
		})
	}
}

// TestContextEndsEveryWait: a server that never answers, and one that
// stops halfway through a body; the request's context ends both waits
// with its own error, and the connection is not reused.
func TestContextEndsEveryWait(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		io.Copy(io.Discard, req.Body)
		if req.URL.Query().Get("half") != "" {
			io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf")
		}
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
	})
	tr := &Transport{}
	defer tr.CloseIdleConnections()

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := tr.RoundTrip(post(t, ctx, srv.url(), "x"))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("waiting for headers: %v after %v, want the deadline's error at once", err, time.Since(start))
	}

	ctx2, cancel2 := context.WithCancel(context.Background())
	resp, err := tr.RoundTrip(post(t, ctx2, srv.url()+"?half=1", "x"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "half" {
		t.Fatalf("first bytes: %q %v", buf, err)
	}
	time.AfterFunc(20*time.Millisecond, cancel2)
	_, err = io.ReadAll(resp.Body)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("reading the body after cancel: %v, want context.Canceled", err)
	}
	resp.Body.Close()
	if n := tr.idleCount(hostPort(srv.ln.Addr().String())); n != 0 {
		t.Fatalf("%d idle connections after cancelled requests, want 0", n)
	}
}

// TestIdleCloseIsNoticed: the server closes a connection after answering
// without saying so; after it sat idle past probeAfter, the next request
// goes on a new connection instead of failing on the closed one.
func TestIdleCloseIsNoticed(t *testing.T) {
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		if readRequest(br) {
			io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	for i := range 2 {
		if i == 1 {
			time.Sleep(probeAfter + 100*time.Millisecond)
		}
		resp, err := tr.RoundTrip(post(t, context.Background(), srv.url(), "x"))
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if got, err := readAll(resp); got != "ok" || err != nil {
			t.Fatalf("request %d: %q %v", i, got, err)
		}
	}
	if n := srv.accepts.Load(); n != 2 {
		t.Fatalf("%d connections, want 2", n)
	}
}

// TestRefusesMalformedRequests: nothing is sent for a header that would
// split the request, or a scheme h1 does not speak without a fallback.
func TestRefusesMalformedRequests(t *testing.T) {
	srv := newRawServer(t, func(net.Conn, *bufio.Reader) {})
	tr := &Transport{}
	for _, c := range []struct{ name, key, value string }{
		{"CRLF in a value", "X-A", "a\r\nX-Injected: 1"},
		{"LF in a value", "X-A", "a\nb"},
		{"space in a name", "X A", "a"},
		{"colon in a name", "X:A", "a"},
	} {
		req := post(t, context.Background(), srv.url(), "x")
		req.Header[c.key] = []string{c.value}
		if _, err := tr.RoundTrip(req); err == nil {
			t.Errorf("%s: sent", c.name)
		}
	}
	req := post(t, context.Background(), "https://127.0.0.1:1/mcp", "x")
	if _, err := tr.RoundTrip(req); err == nil || !strings.Contains(err.Error(), "unsupported scheme") {
		t.Errorf("https without a fallback: %v", err)
	}
	if n := srv.accepts.Load(); n != 0 {
		t.Errorf("%d connections made for refused requests", n)
	}
}

// TestHeadTooLarge: a server whose headers never end fails the request
// at MaxHeaderBytes instead of filling memory.
func TestHeadTooLarge(t *testing.T) {
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		if !readRequest(br) {
			return
		}
		io.WriteString(conn, "HTTP/1.1 200 OK\r\n")
		line := "X-Filler: " + strings.Repeat("a", 1000) + "\r\n"
		for range 2 * MaxHeaderBytes / len(line) {
			if _, err := io.WriteString(conn, line); err != nil {
				return
			}
		}
	})
	tr := &Transport{}
	_, err := tr.RoundTrip(post(t, context.Background(), srv.url(), "x"))
	if !errors.Is(err, errHeadTooLarge) {
		t.Fatalf("err %v, want errHeadTooLarge", err)
	}
}

// TestFirstByteTrace: the GotFirstResponseByte hook runs once, after the
// request is out and before RoundTrip returns (readbench's time to first
// byte comes from it).
func TestFirstByteTrace(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	var calls int
	var at time.Time
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		GotFirstResponseByte: func() { calls++; at = time.Now() },
	})
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	sent := time.Now()
	resp, err := tr.RoundTrip(post(t, ctx, srv.URL, "x"))
	if err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	readAll(resp)
	if calls != 1 || at.Sub(sent) < 20*time.Millisecond || at.After(back) {
		t.Fatalf("hook called %d times, %v after sending (want once, after the server's 20 ms, before RoundTrip returned)", calls, at.Sub(sent))
	}
}

// TestFallbackTakesHTTPS: https goes to the fallback transport.
func TestFallbackTakesHTTPS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	}))
	defer srv.Close()
	tr := &Transport{Fallback: srv.Client().Transport}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(post(t, context.Background(), srv.URL, "x"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readAll(resp); err != nil || got != "HTTP/1.1" && got != "HTTP/2.0" {
		t.Fatalf("%q %v", got, err)
	}
}

// failingConn fails its writes from the second request on: with nothing
// written (partial false) or after writing half of what it was given.
type failingConn struct {
	net.Conn
	writes  *atomic.Int32
	partial bool
}

func (c failingConn) Write(p []byte) (int, error) {
	if c.writes.Add(1) == 1 {
		return c.Conn.Write(p)
	}
	if c.partial {
		n, _ := c.Conn.Write(p[:len(p)/2])
		return n, errors.New("broken after half")
	}
	return 0, errors.New("broken before any byte")
}

// TestResendOnlyWhatWasNotWritten: a reused connection that fails before
// any byte of a request is written gets the request sent again on a new
// connection; one that fails halfway does not (the server may have the
// request: a POST is never sent twice).
func TestResendOnlyWhatWasNotWritten(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	for _, partial := range []bool{false, true} {
		var dials atomic.Int32
		tr := &Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			nc, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err != nil || dials.Add(1) > 1 {
				return nc, err // the new connection works
			}
			return failingConn{Conn: nc, writes: new(atomic.Int32), partial: partial}, nil
		}}
		for i := range 2 {
			resp, err := tr.RoundTrip(post(t, context.Background(), srv.URL, "x"))
			if i == 1 && partial {
				if err == nil || dials.Load() != 1 {
					t.Fatalf("half written: err %v after %d dials, want the error and no new connection", err, dials.Load())
				}
				continue
			}
			if err != nil {
				t.Fatalf("partial=%v request %d: %v", partial, i, err)
			}
			if got, err := readAll(resp); got != "ok" || err != nil {
				t.Fatalf("partial=%v request %d: %q %v", partial, i, got, err)
			}
		}
		if !partial && dials.Load() != 2 {
			t.Fatalf("nothing written: %d dials, want 2 (the request sent again on a new connection)", dials.Load())
		}
		tr.CloseIdleConnections()
	}
}
