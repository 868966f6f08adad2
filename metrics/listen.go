package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Server is the scrape endpoint: GET /metrics serves a Registry's series
// in the OpenMetrics text format (or Prometheus's protobuf format, native
// histograms included, when the scraper asks for it). Both carry the
// buckets' exemplars; the classic Prometheus text format has none, which
// is why OpenMetrics is enabled.
type Server struct {
	srv    *http.Server
	ln     net.Listener
	done   chan struct{} // closed when Serve returns
	mu     sync.Mutex
	ending bool          // Close was called: the next scrape begun after it is the final one
	final  chan struct{} // closed when that scrape has been served
	once   sync.Once
}

// Listen starts serving r's series on addr (host:port; port 0 picks one).
func Listen(r *Registry, addr string) (*Server, error) {
	return ListenGatherer(prometheus.GathererFunc(r.Gather), addr)
}

// ListenGatherer serves g's series on addr as Listen does: for series
// that are not a run's, such as readbench serve's simulated server's.
func ListenGatherer(g prometheus.Gatherer, addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics listen=%s: %w", addr, err)
	}
	s := &Server{ln: ln, done: make(chan struct{}), final: make(chan struct{})}
	h := promhttp.HandlerFor(g, promhttp.HandlerOpts{EnableOpenMetrics: true})
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, req *http.Request) {
		s.mu.Lock()
		final := s.ending
		s.mu.Unlock()
		h.ServeHTTP(w, req) // gathers now: a scrape begun after Close has the final counts
		if final {
			s.once.Do(func() { close(s.final) })
		}
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with http.ErrServerClosed at Close
	}()
	return s, nil
}

// Addr is the address the endpoint listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close keeps the endpoint open after the run until one scrape begun
// after the call has been served (it has the final counts) or linger has passed,
// whichever is first, then shuts it down. It returns whether a final
// scrape was served.
func (s *Server) Close(linger time.Duration) (scraped bool) {
	s.mu.Lock()
	s.ending = true
	s.mu.Unlock()
	if linger > 0 {
		t := time.NewTimer(linger)
		select {
		case <-s.final:
			scraped = true
		case <-t.C:
		}
		t.Stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		_ = s.srv.Close()
	}
	<-s.done
	return scraped
}
