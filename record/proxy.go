package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// Options configure a recording proxy.
type Options struct {
	// Upstream is the server every message is forwarded to.
	Upstream targets.Target
	// Out receives the recording.
	Out io.Writer
	// RedactURIs writes RedactURI of every URI instead of the URI.
	RedactURIs bool
	// Headers are added to every request of the stdio-to-HTTP bridge
	// (a stdio host sends none: --header 'Authorization: Bearer …'); never
	// recorded. The HTTP proxy forwards its clients' own headers instead.
	Headers map[string]string
	// Burst is the floor of the turn window: a read that arrives within
	// it of its session's previous read joins that read's turn even if
	// one of the turn's reads was answered; the window grows past it with
	// the gaps the recording sees (0: DefaultBurst; see turns).
	Burst time.Duration
	// MaxAnswer bounds the bytes of one message the proxy keeps to
	// classify it (0: DefaultMaxAnswer), 4 MiB in memory and the rest in
	// a file (SpillDir); a bigger one is forwarded whole and recorded as a
	// protocol outcome with its size.
	MaxAnswer int64
	// SpillDir is where the part of a message past 4 MiB is kept while it
	// passes, in a file without a name ("": os.TempDir; the command gives
	// the recording's folder), so that a huge answer is not held in memory.
	SpillDir string
	// Transport makes the upstream requests (nil: a transport of its
	// own, no environment proxy, no compression).
	Transport http.RoundTripper
}

// DefaultMaxAnswer is Options.MaxAnswer's default.
const DefaultMaxAnswer = 256 << 20

// maxRequest bounds a client's request body the proxy reads (requests
// are small; a bigger one is refused with 413).
const maxRequest = 16 << 20

// HTTP is a recording proxy for the Streamable HTTP transport, both
// eras: each request, whatever its path, is forwarded to the upstream URL
// with its method, headers (but hop-by-hop ones and Accept-Encoding, so
// that answers pass readable) and body; the answer comes back as it
// arrives, a JSON body or an event stream flushed event by event.
//
// Requests for the upstream's origin rather than its MCP endpoint (OAuth
// discovery and the authorization server on that origin) are forwarded
// there, with the origin rewritten each way (oauth.go).
type HTTP struct {
	o  Options
	b  *book
	rt http.RoundTripper
	// upOrigin is the upstream's scheme://host, upPath its MCP endpoint's
	// path; oauth the paths of its origin the proxy forwards as they are.
	upOrigin, upPath string
	oauth            oauthPaths
	// foreign are the authorization servers on other origins it stands
	// for (oauthforeign.go).
	foreign foreignOrigins
}

// NewHTTP starts a recording of a proxy to an http(s) upstream: the
// header line is written at once.
func NewHTTP(o Options) (*HTTP, error) {
	if o.Upstream.Kind != targets.HTTP {
		return nil, fmt.Errorf("record: the HTTP proxy forwards to an http(s):// Streamable HTTP upstream, not %s", o.Upstream.Redacted())
	}
	b, err := newBook(o, "http")
	if err != nil {
		return nil, err
	}
	rt := o.Transport
	if rt == nil {
		rt = &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second}
	}
	u, err := url.Parse(o.Upstream.Address)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("record: upstream %s: not an absolute URL", o.Upstream.Redacted())
	}
	return &HTTP{o: o, b: b, rt: rt, upOrigin: u.Scheme + "://" + u.Host, upPath: u.Path}, nil
}

func newBook(o Options, transport string) (*book, error) {
	if o.Out == nil {
		return nil, errors.New("record: no output")
	}
	started := time.Now()
	w, err := NewWriter(o.Out, Header{Upstream: targets.RedactSecrets(o.Upstream.String()), Transport: transport, Started: started, RedactedURIs: o.RedactURIs})
	if err != nil {
		return nil, err
	}
	b := &book{out: w, started: started, redact: o.RedactURIs, turns: turns{burst: o.Burst}, stop: make(chan struct{})}
	b.turns.write = func(rd Read) { w.Read(rd) } // an error sticks in the writer; Close reports it
	go b.settling()
	return b, nil
}

// Close writes the turns not yet written and the recording's last line
// (the methods counted). The caller stops serving first.
func (p *HTTP) Close() error { return p.b.close(time.Now()) }

// hopHeaders are not forwarded (RFC 9110 §7.6.1), nor Accept-Encoding.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Accept-Encoding"}

func (p *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p.isOAuth(r.URL.Path) {
		p.serveOAuth(w, r)
		return
	}
	arrived := time.Now()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequest+1))
	if err != nil {
		http.Error(w, "readbench record: reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > maxRequest {
		http.Error(w, "readbench record: request body over 16 MiB", http.StatusRequestEntityTooLarge)
		return
	}
	sid := r.Header.Get(protocol.HeaderSessionID)
	var reads []*pending
	if r.Method == http.MethodPost {
		reads = p.b.requests(messages(body), sid, protocol.IsModern(r.Header.Get(protocol.HeaderProtocolVersion)), arrived)
	}
	up, err := http.NewRequestWithContext(r.Context(), r.Method, p.o.Upstream.Address, bytes.NewReader(body))
	if err != nil {
		p.b.unanswered(reads, false, stats.Transport, time.Now())
		http.Error(w, "readbench record: "+err.Error(), http.StatusBadGateway)
		return
	}
	up.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		up.Header.Del(h)
	}
	up.ContentLength = int64(len(body))
	resp, err := p.rt.RoundTrip(up)
	if err != nil {
		p.b.unanswered(reads, r.Context().Err() != nil, stats.Transport, time.Now())
		http.Error(w, "readbench record: upstream: "+targets.RedactSecrets(err.Error()), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	p.swapHeaders(w.Header(), proxyOrigin(r)) // a 401's challenge names the proxy's metadata
	w.WriteHeader(resp.StatusCode)
	passed, gone := p.relay(w, resp, reads)
	failed := stats.Transport
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		failed = stats.Unauthorized
	}
	p.b.unansweredAfter(reads, gone || r.Context().Err() != nil, failed, passed, time.Now())
}

// relay copies the answer to the client as it arrives, and hands each
// JSON-RPC message in it to the book. It returns the bytes that reached
// the client, and whether the client went away before the end.
func (p *HTTP) relay(w http.ResponseWriter, resp *http.Response, reads []*pending) (passed int64, gone bool) {
	flush := func() {}
	if f, ok := w.(http.Flusher); ok {
		flush = f.Flush
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	split := newSplitter(ct == protocol.ContentTypeSSE, p.o.maxAnswer(), p.o.SpillDir)
	emit := func(msg []byte, framing int64, over bool) {
		if over {
			p.b.oversized(reads, framing, time.Now())
			return
		}
		if len(reads) > 0 {
			p.b.response(reads, msg, framing, time.Now())
		}
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				split.end(func([]byte, int64, bool) {}) // its spool freed
				return passed, true
			}
			passed += int64(n)
			flush()
			split.feed(buf[:n], emit)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				split.end(emit)
			} else {
				split.end(func([]byte, int64, bool) {})
			}
			return passed, false
		}
	}
}

// maxAnswer is MaxAnswer or its default.
func (o Options) maxAnswer() int64 {
	if o.MaxAnswer <= 0 {
		return DefaultMaxAnswer
	}
	return o.MaxAnswer
}

// oversized ends the one read left waiting when a message too big to
// classify passed: it was most likely its answer (a protocol outcome
// with its wire size; the answer itself was forwarded whole).
func (b *book) oversized(reads []*pending, wire int64, now time.Time) {
	for _, p := range reads {
		if !p.done {
			a := answerOfSize(wire)
			b.finish(p, a, now)
			return
		}
	}
}
