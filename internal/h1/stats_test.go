package h1

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/conns"
)

// TestStatsSayWhyConnectionsEnd: each way an exchange can end its
// connection is counted once, under who caused it, and a connection that
// carried its response whole is counted as reused by the next request.
func TestStatsSayWhyConnectionsEnd(t *testing.T) {
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			switch req.URL.Query().Get("do") {
			case "close":
				io.WriteString(conn, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
				return
			case "half":
				io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf")
				time.Sleep(time.Second)
				return
			case "hang":
				time.Sleep(time.Second)
				return
			case "eof":
				return
			case "asked":
				if req.Header.Get("Connection") != "close" {
					io.WriteString(conn, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
					return
				}
			}
			io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	for _, tc := range []struct {
		name, do string
		noKeep   bool // DisableKeepAlives
		wait     time.Duration
		cancel   time.Duration // the request's context is cancelled after this
		early    bool          // the body is closed after its first byte
		want     conns.Stats
	}{
		{name: "kept", do: "ok", want: conns.Stats{Opened: 1, Requests: 2, Reused: 1, Peak: 1}},
		{name: "the server said close", do: "close", want: conns.Stats{Opened: 2, Requests: 2, Peak: 1, ClosedByServer: 1}},
		{name: "the server closed without answering", do: "eof", want: conns.Stats{Opened: 2, Requests: 2, Peak: 1, ClosedByServer: 1}},
		{name: "keep-alive off", do: "asked", noKeep: true, want: conns.Stats{Opened: 2, Requests: 2, Peak: 1, ClosedByClient: 1}},
		{name: "deadline before the head", do: "hang", wait: 30 * time.Millisecond, want: conns.Stats{Opened: 2, Requests: 2, Peak: 1, ClosedByCut: 1}},
		{name: "deadline mid-body", do: "half", wait: 50 * time.Millisecond, want: conns.Stats{Opened: 2, Requests: 2, Peak: 1, ClosedByCut: 1}},
		{name: "context ended before the head", do: "hang", cancel: 30 * time.Millisecond, want: conns.Stats{Opened: 2, Requests: 2, Peak: 1, ClosedByCut: 1}},
		{name: "the reader stopped early", do: "half", early: true, want: conns.Stats{Opened: 2, Requests: 2, Peak: 1, ClosedByClient: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &Transport{DisableKeepAlives: tc.noKeep}
			defer tr.CloseIdleConnections()
			u, _ := url.Parse(srv.url() + "?do=" + tc.do)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel > 0 {
				time.AfterFunc(tc.cancel, cancel)
			}
			p := Post{URL: u, Body: []byte("x")}
			if tc.wait > 0 {
				p.Deadline = time.Now().Add(tc.wait)
			}
			if resp, err := tr.Post(ctx, &p); err == nil {
				if tc.early {
					resp.Body.Read(make([]byte, 1))
					resp.Body.Close()
				} else {
					readAll(resp)
				}
			}
			// a plain request after it: on the same connection if it was kept
			tr.DisableKeepAlives = false
			ok, _ := url.Parse(srv.url())
			resp, err := tr.Post(context.Background(), &Post{URL: ok, Body: []byte("x")})
			if err != nil {
				t.Fatal(err)
			}
			if got, err := readAll(resp); got != "ok" || err != nil {
				t.Fatalf("the request after: %q %v", got, err)
			}
			if got := tr.Stats(); got != tc.want {
				t.Fatalf("Stats %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestStatsPeak: the most connections open at once, which requests in
// flight together need; done, they are idle and reused.
func TestStatsPeak(t *testing.T) {
	srv := okServer(t)
	tr := &Transport{}
	defer tr.CloseIdleConnections()
	for range 2 {
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				if got, err := postTo(t, context.Background(), tr, srv.url()+"?wait=100ms", time.Time{}); got != "ok" || err != nil {
					t.Errorf("%q %v", got, err)
				}
			})
		}
		wg.Wait()
	}
	if got, want := tr.Stats(), (conns.Stats{Opened: 3, Requests: 6, Reused: 3, Peak: 3}); got != want {
		t.Fatalf("Stats %+v, want %+v", got, want)
	}
}

// TestFallbackStats: requests through the fallback (net/http, here over
// plain http through an http.Transport) are counted: a connection opened,
// reused by the next request, and one the server closed.
func TestFallbackStats(t *testing.T) {
	srv := newRawServer(t, func(conn net.Conn, br *bufio.Reader) {
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			io.Copy(io.Discard, req.Body)
			if strings.Contains(req.URL.RawQuery, "close") {
				io.WriteString(conn, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
				return
			}
			io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	tr := &Transport{Fallback: schemeAsHTTP{&http.Transport{}}}
	defer tr.CloseIdleConnections()
	for _, q := range []string{"", "", "?close"} {
		req := post(t, context.Background(), srv.url()+q, "x")
		req.URL.Scheme = "fallback" // not http: h1 hands it to the fallback
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := readAll(resp); got != "ok" || err != nil {
			t.Fatalf("%q %v", got, err)
		}
	}
	if got, want := tr.Stats(), (conns.Stats{Opened: 1, Requests: 3, Reused: 2, ClosedByServer: 1}); got != want {
		t.Fatalf("Stats %+v, want %+v", got, want)
	}
}

// schemeAsHTTP sends a request of another scheme as plain http, so that
// the fallback's accounting can be tested without TLS.
type schemeAsHTTP struct{ t *http.Transport }

func (s schemeAsHTTP) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.URL.Scheme = "http"
	return s.t.RoundTrip(r)
}

func (s schemeAsHTTP) CloseIdleConnections() { s.t.CloseIdleConnections() }
