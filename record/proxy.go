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
	// Burst: a read that arrives within Burst of its session's turn's
	// first read joins that turn even if one of its reads was answered
	// (0: DefaultBurst; see turns).
	Burst time.Duration
	// MaxAnswer bounds the bytes of one message the proxy keeps to
	// classify it (0: DefaultMaxAnswer); a bigger one is forwarded whole
	// and recorded as a protocol outcome with its size.
	MaxAnswer int64
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
	return &book{out: w, started: started, redact: o.RedactURIs, turns: turns{burst: o.Burst}}, nil
}

// Close writes the recording's last line (the methods counted). The
// caller stops serving first.
func (p *HTTP) Close() error { return p.b.out.Close(time.Now()) }

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
	p.relay(w, resp, reads)
	failed := stats.Transport
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		failed = stats.Unauthorized
	}
	p.b.unanswered(reads, r.Context().Err() != nil, failed, time.Now())
}

// relay copies the answer to the client as it arrives, and hands each
// JSON-RPC message in it to the book.
func (p *HTTP) relay(w http.ResponseWriter, resp *http.Response, reads []*pending) {
	flush := func() {}
	if f, ok := w.(http.Flusher); ok {
		flush = f.Flush
	}
	limit := p.o.MaxAnswer
	if limit <= 0 {
		limit = DefaultMaxAnswer
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var split splitter
	if ct == protocol.ContentTypeSSE {
		split = &sseSplitter{limit: limit}
	} else {
		split = &bodySplitter{limit: limit}
	}
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
				return // the client went away
			}
			flush()
			split.feed(buf[:n], emit)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				split.end(emit)
			}
			return
		}
	}
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

// splitter cuts an answer body into JSON-RPC messages as it streams in.
type splitter interface {
	feed(p []byte, emit func(msg []byte, framing int64, over bool))
	end(emit func(msg []byte, framing int64, over bool))
}

// bodySplitter keeps a JSON body whole (one message or a batch).
type bodySplitter struct {
	limit int64
	buf   []byte
	size  int64
}

func (s *bodySplitter) feed(p []byte, _ func([]byte, int64, bool)) {
	s.size += int64(len(p))
	if s.size <= s.limit {
		s.buf = append(s.buf, p...)
	}
}

func (s *bodySplitter) end(emit func([]byte, int64, bool)) {
	if s.size > s.limit {
		emit(nil, s.size, true)
		return
	}
	b := bytes.TrimSpace(s.buf)
	if len(b) > 0 && b[0] == '[' {
		var batch []jsonRaw
		if jsonUnmarshal(b, &batch) == nil {
			for _, m := range batch {
				emit(m, 0, false)
			}
		}
		return
	}
	emit(b, s.size-int64(len(b)), false)
}

// sseSplitter reads an event stream: each event's data lines, joined,
// are one message; the rest of the event is its framing.
type sseSplitter struct {
	limit   int64
	line    []byte
	data    []byte
	framing int64
	over    bool
	size    int64 // of the event so far
}

func (s *sseSplitter) feed(p []byte, emit func([]byte, int64, bool)) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.addLine(p)
			return
		}
		s.addLine(p[:i])
		s.size++ // the newline
		s.endLine(emit)
		p = p[i+1:]
	}
}

func (s *sseSplitter) addLine(p []byte) {
	s.size += int64(len(p))
	if int64(len(s.line)+len(p)) <= s.limit {
		s.line = append(s.line, p...)
	} else {
		s.over = true
	}
}

func (s *sseSplitter) endLine(emit func([]byte, int64, bool)) {
	line := bytes.TrimSuffix(s.line, []byte("\r"))
	s.line = s.line[:0]
	if len(line) == 0 { // the event is over
		if len(s.data) > 0 || s.over {
			msg := s.data
			if len(msg) > 0 {
				msg = msg[:len(msg)-1] // the last data line's joining newline
			}
			emit(msg, s.size-int64(len(msg)), s.over)
		}
		s.data, s.size, s.over = s.data[:0], 0, false
		return
	}
	if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		v = bytes.TrimPrefix(v, []byte(" "))
		if int64(len(s.data)+len(v)) > s.limit {
			s.over = true
			return
		}
		s.data = append(append(s.data, v...), '\n')
	}
}

func (s *sseSplitter) end(emit func([]byte, int64, bool)) {
	if len(s.line) > 0 {
		s.endLine(emit)
	}
	if len(s.data) > 0 {
		s.endLine(emit) // an empty line ends the last event
	}
}
