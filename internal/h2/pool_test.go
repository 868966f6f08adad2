package h2

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/conns"
)

// The pool is tested against net/http's own HTTP/2 server (h2c with prior
// knowledge, and TLS with ALPN): a server no one here wrote.

// h2cServer serves h over h2c (and HTTP/1.1), with cfg's HTTP/2 settings.
func h2cServer(t *testing.T, h http.Handler, cfg *http.HTTP2Config) *httptest.Server {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	s.Config.Protocols = new(http.Protocols)
	s.Config.Protocols.SetHTTP1(true)
	s.Config.Protocols.SetUnencryptedHTTP2(true)
	s.Config.HTTP2 = cfg
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// tlsServer serves h over TLS, offering h2 by ALPN unless h1Only.
func tlsServer(t *testing.T, h http.Handler, h1Only bool) (*httptest.Server, *tls.Config) {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	s.EnableHTTP2 = !h1Only
	s.StartTLS()
	t.Cleanup(s.Close)
	roots := x509.NewCertPool()
	roots.AddCert(s.Certificate())
	return s, &tls.Config{RootCAs: roots}
}

// get sends a GET through p and reads the whole answer.
func get(ctx context.Context, p *Pool, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := p.RoundTrip(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 {
		return "", errors.New("answered over " + resp.Proto)
	}
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// gate holds every request until n are in the handler at once, and
// records the most that were.
type gate struct {
	n            int
	mu           sync.Mutex
	in, peak     int
	all          chan struct{}
	remotes      map[string]bool
	releaseAfter time.Duration
}

func newGate(n int, releaseAfter time.Duration) *gate {
	return &gate{n: n, all: make(chan struct{}), remotes: map[string]bool{}, releaseAfter: releaseAfter}
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.in++
	g.peak = max(g.peak, g.in)
	g.remotes[r.RemoteAddr] = true
	if g.in == g.n {
		close(g.all)
	}
	g.mu.Unlock()
	select {
	case <-g.all:
	case <-time.After(g.releaseAfter):
	}
	g.mu.Lock()
	g.in--
	g.mu.Unlock()
	io.WriteString(w, r.Proto)
}

// parallel sends n GETs at once and fails t on any error.
func parallel(t *testing.T, p *Pool, url string, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			if body, err := get(ctx, p, url); err != nil || body != "HTTP/2.0" {
				errs <- errors.Join(err, errors.New("body "+body))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestPoolSpreadsStreamsOverConnections(t *testing.T) {
	g := newGate(16, 10*time.Second)
	s := h2cServer(t, g, nil)
	p := New(Config{Connections: 4})
	defer p.Close()
	parallel(t, p, s.URL, 16)
	st := p.Stats()
	if st.Opened != 4 || st.Requests != 16 || st.Reused != 12 || st.HTTP2.Streams != 16 || st.HTTP2.PeakStreams != 16 {
		t.Fatalf("stats %+v %+v: want 4 connections carrying 16 streams at once", st, *st.HTTP2)
	}
	if len(g.remotes) != 4 || g.peak != 16 {
		t.Fatalf("server saw %d connections, %d streams at once: want 4, 16", len(g.remotes), g.peak)
	}
}

func TestPoolBoundsStreamsPerConnection(t *testing.T) {
	g := newGate(100, 50*time.Millisecond) // never all: each waits 50 ms
	s := h2cServer(t, g, nil)
	p := New(Config{Connections: 1, StreamsPerConnection: 2})
	defer p.Close()
	parallel(t, p, s.URL, 6)
	st := p.Stats()
	// 4 wait for a stream; the first's dial may make 5 wait, then 4
	if w := st.HTTP2.Waited; g.peak != 2 || st.Opened != 1 || st.HTTP2.PeakStreams != 2 || w < 4 || w > 5 {
		t.Fatalf("server saw %d at once; stats %+v %+v: want 2 at once on 1 connection, 4 or 5 waited", g.peak, st, *st.HTTP2)
	}
}

func TestPoolKeepsToTheServersMaxConcurrentStreams(t *testing.T) {
	g := newGate(100, 50*time.Millisecond)
	s := h2cServer(t, g, &http.HTTP2Config{MaxConcurrentStreams: 3})
	p := New(Config{Connections: 1})
	defer p.Close()
	if _, err := get(context.Background(), p, s.URL); err != nil { // the server's SETTINGS are known from here on
		t.Fatal(err)
	}
	parallel(t, p, s.URL, 9)
	st := p.Stats()
	if g.peak != 3 || st.HTTP2.MaxConcurrentStreams != 3 || st.HTTP2.PeakStreams != 3 || st.Opened != 1 {
		t.Fatalf("server saw %d at once; stats %+v %+v: want at most the server's 3", g.peak, st, *st.HTTP2)
	}
	if st.HTTP2.Waited == 0 {
		t.Fatalf("stats %+v: want requests that waited for a stream", *st.HTTP2)
	}
}

// A read cut mid-answer resets its stream (RST_STREAM sent), the server
// sees its request end, and the connection carries the next read.
func TestPoolCutResetsTheStreamAndKeepsTheConnection(t *testing.T) {
	gone := make(chan struct{})
	s := h2cServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/slow" {
			io.WriteString(w, r.Proto)
			return
		}
		io.WriteString(w, "first half")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(gone)
	}), nil)
	p := New(Config{Connections: 1})
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/slow", nil)
	resp, err := p.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, context.Canceled) {
		t.Fatalf("cut body: %v, want context.Canceled", err)
	}
	resp.Body.Close()
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the cut request end")
	}
	if _, err := get(context.Background(), p, s.URL); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	want := conns.Stats{Opened: 1, Requests: 2, Reused: 1, Peak: 1}
	if h := st.HTTP2; h == nil || h.ResetsByClient != 1 || h.ResetsByServer != 0 || h.Streams != 2 {
		t.Fatalf("HTTP/2 stats %+v: want 1 reset sent, 2 streams", h)
	}
	if st.HTTP2 = nil; st != want {
		t.Fatalf("stats %+v, want %+v", st, want)
	}
}

// A server's graceful shutdown is a GOAWAY received, its connection
// counted as ended by the server; the read in flight on it still ends
// with its answer, and the next read goes on a new connection.
func TestPoolCountsTheServersGoAway(t *testing.T) {
	inSlow := make(chan struct{}, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			inSlow <- struct{}{}
			time.Sleep(500 * time.Millisecond)
		}
		io.WriteString(w, r.Proto)
	})
	s := h2cServer(t, h, nil)
	p := New(Config{Connections: 1})
	defer p.Close()
	slow := make(chan error, 1)
	go func() {
		body, err := get(context.Background(), p, s.URL+"/slow")
		if err == nil && body != "HTTP/2.0" {
			err = errors.New("body " + body)
		}
		slow <- err
	}()
	<-inSlow // the server processes it: a GOAWAY lets it finish
	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		shut <- s.Config.Shutdown(ctx)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for p.Stats().HTTP2.GoAwayByServer == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	s2 := h2cServer(t, h, nil) // the same pool, a server at another port: the old connection is no longer picked
	if _, err := get(context.Background(), p, s2.URL); err != nil {
		t.Fatal(err)
	}
	if err := <-slow; err != nil {
		t.Fatalf("the read in flight at the GOAWAY: %v", err)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.HTTP2.GoAwayByServer != 1 || st.ClosedByServer != 1 || st.Opened != 2 || st.HTTP2.GoAwayByClient != 0 {
		t.Fatalf("stats %+v %+v: want 1 GOAWAY by the server, its connection closed by the server, 2 opened", st, *st.HTTP2)
	}
}

func TestPoolSpeaksH2OverTLS(t *testing.T) {
	s, cfg := tlsServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Proto) }), false)
	p := New(Config{TLS: cfg, OrHTTP1: true})
	defer p.Close()
	if body, err := get(context.Background(), p, s.URL); err != nil || body != "HTTP/2.0" {
		t.Fatalf("got %q, %v: want HTTP/2.0", body, err)
	}
}

func TestPoolTellsAnHTTP1Server(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Proto) })
	s, cfg := tlsServer(t, h, true)
	auto := New(Config{TLS: cfg, OrHTTP1: true})
	defer auto.Close()
	for range 2 { // the second is told at once
		if _, err := get(context.Background(), auto, s.URL); !errors.Is(err, ErrNotHTTP2) {
			t.Fatalf("auto: %v, want ErrNotHTTP2", err)
		}
	}
	only := New(Config{TLS: cfg})
	defer only.Close()
	if _, err := get(context.Background(), only, s.URL); err == nil || !strings.Contains(err.Error(), "offering only h2 by ALPN") {
		t.Fatalf("version 2: %v, want a refusal naming ALPN", err)
	}
}
