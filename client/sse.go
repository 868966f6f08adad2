package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// sseTransport speaks the 2024-11-05 HTTP+SSE transport: one GET stream
// per session carries every message from the server, and each client
// message is a POST to the endpoint the stream's first event names.
// Answers arrive on the stream in any order and are matched by id, as on
// stdio; a POST only acknowledges (202).
type sseTransport struct {
	sseURL    string
	postURL   string // from the endpoint event, resolved against sseURL
	client    *http.Client
	headers   http.Header // from the workload, already expanded; never logged
	calls     *calls      // answers matched to callers, cancelled ids remembered
	maxAnswer int64       // bytes; a bigger event is a protocol failure of its read
	auth      *bearer     // the target's tokens (nil: none)
	stray     *strayLines // answers on the stream to no request in flight (stray.go)

	life       context.Context    // the session's: ends when it closes (bounds every POST)
	stopStream context.CancelFunc // ends the GET stream and life
	readerDone chan struct{}      // closed when readLoop has returned
	bg         sync.WaitGroup     // cancellations and replies being POSTed
	closeOnce  sync.Once

	mu      sync.Mutex
	version string // the session's protocol version, once known
	closing bool

	failed  chan struct{} // closed when the stream ends
	deadErr error         // set before failed is closed
}

// endpointTimeout bounds the wait for the endpoint event when the caller's
// context has no deadline of its own.
const endpointTimeout = 30 * time.Second

// startSSE opens the session's GET stream and waits for its endpoint
// event; ctx bounds only that wait, the stream lives until close. Each
// message is at most maxAnswer bytes (0: targets.DefaultMaxAnswer).
func startSSE(ctx context.Context, sseURL string, headers http.Header, late LateFunc, maxAnswer int64) (*sseTransport, error) {
	return startAuthorizedSSE(ctx, sseURL, headers, nil, late, maxAnswer, nil)
}

// startAuthorizedSSE is startSSE with the session's bearer: every GET
// and POST carries its token (nil: none); hc is the session's HTTP
// client (Dial.httpClient; nil: newHTTPClient's).
func startAuthorizedSSE(ctx context.Context, sseURL string, headers http.Header, b *bearer, late LateFunc, maxAnswer int64, hc *http.Client) (*sseTransport, error) {
	if hc == nil {
		hc = newHTTPClient()
	}
	streamCtx, stop := context.WithCancel(context.Background())
	t := &sseTransport{
		sseURL: sseURL, client: hc, headers: headers, calls: newCalls(late), maxAnswer: answerLimit(maxAnswer), auth: b,
		life: streamCtx, stopStream: stop, readerDone: make(chan struct{}), failed: make(chan struct{}),
		stray: newStrayLines(),
	}
	t.calls.stray = t.stray
	wctx, cancel := context.WithTimeout(ctx, endpointTimeout)
	defer cancel()
	unwatch := context.AfterFunc(wctx, stop) // a server that never sends the endpoint must not hang the run
	body, r, err := t.open(streamCtx)
	if unwatch() && err == nil {
		go t.readLoop(r, body)
		return t, nil
	}
	stop()
	if body != nil {
		body.Close()
	}
	t.client.CloseIdleConnections()
	if err == nil || wctx.Err() != nil {
		return nil, transportErr("%s: no endpoint event: %w", targets.RedactSecrets(sseURL), context.Cause(wctx))
	}
	return nil, err
}

// maxEndpoint bounds the endpoint event's data (a URL).
const maxEndpoint = 8 << 10

// open sends the GET and reads up to the endpoint event.
func (t *sseTransport) open(ctx context.Context) (io.ReadCloser, *sseEvents, error) {
	resp, _, err := t.auth.do(ctx, t.client.Do, "GET "+targets.RedactSecrets(t.sseURL), func(auth.Token) (*http.Request, error) {
		hr, err := http.NewRequestWithContext(ctx, http.MethodGet, t.sseURL, nil)
		if err != nil {
			return nil, fmt.Errorf("build request: %w", err)
		}
		for k, vs := range t.headers {
			hr.Header[k] = vs
		}
		hr.Header.Set("Accept", protocol.ContentTypeSSE)
		hr.Header.Set("Cache-Control", "no-cache")
		return hr, nil
	})
	if errors.Is(err, ErrUnauthorized) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, transportErr("GET %s: %w", targets.RedactSecrets(t.sseURL), err)
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || ct != protocol.ContentTypeSSE {
		b, _ := readBody(resp, 4096)
		resp.Body.Close()
		return nil, nil, getRefused(&sseGetError{url: t.sseURL, status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), body: excerpt(b)})
	}
	r := newSSEEvents(resp.Body)
	for {
		var data []byte
		ev, err := r.next(func(b []byte) bool {
			data = append(data, b...)
			return len(data) <= maxEndpoint
		})
		if err != nil {
			resp.Body.Close()
			return nil, nil, transportErr("GET %s: the stream ended before the endpoint event: %w", targets.RedactSecrets(t.sseURL), err)
		}
		switch {
		case ev.name == "endpoint":
			if t.postURL, err = resolveEndpoint(t.sseURL, string(data)); err != nil {
				resp.Body.Close()
				return nil, nil, err
			}
			return resp.Body, r, nil
		case len(data) > 0:
			resp.Body.Close()
			return nil, nil, protocolErr("GET %s: the first event is %q, want the endpoint event", targets.RedactSecrets(t.sseURL), ev.name)
		}
	}
}

// resolveEndpoint resolves the endpoint event's URL against the SSE URL.
// The workload's headers (credentials, often) go only to the target's own
// origin, so an endpoint elsewhere is refused (loopback names count as one).
func resolveEndpoint(sseURL, data string) (string, error) {
	base, err := url.Parse(sseURL)
	if err != nil {
		return "", fmt.Errorf("SSE URL: %w", err)
	}
	ep, err := base.Parse(strings.TrimSpace(data))
	if err != nil {
		return "", protocolErr("endpoint event %q is not a URL: %w", excerpt([]byte(data)), err)
	}
	same := ep.Scheme == base.Scheme && (ep.Host == base.Host ||
		(ep.Port() == base.Port() && protocol.IsLoopbackHost(ep.Hostname()) && protocol.IsLoopbackHost(base.Hostname())))
	if !same {
		return "", protocolErr("endpoint event names %s://%s, another origin than the target %s://%s; readbench sends the workload's headers only to the target", ep.Scheme, ep.Host, base.Scheme, base.Host)
	}
	return ep.String(), nil
}

// readLoop owns the GET stream: it scans and routes every message event
// as its data arrives (see inbound.go) and, when the stream ends, fails
// every waiting call at once. An event over the size limit fails its own
// request; the stream goes on.
func (t *sseTransport) readLoop(r *sseEvents, body io.ReadCloser) {
	defer close(t.readerDone)
	defer body.Close()
	in := &inbound{calls: t.calls, max: t.maxAnswer, unended: "no end of its event"}
	sink := func(b []byte) bool {
		if in.n == 0 && in.first.IsZero() {
			in.first = time.Now() // the event's first data byte
		}
		in.write(b)
		return true
	}
	var err error
	for {
		in.begin(time.Time{})
		var ev sseEvent
		ev, err = r.next(sink)
		if err != nil {
			break
		}
		if ev.data == 0 || (ev.name != "" && ev.name != "message") {
			continue // priming events, a repeated endpoint
		}
		if reply := in.end(ev.wire, time.Now()); reply != nil {
			t.background(func(ctx context.Context) { _, _ = t.post(ctx, reply, "reply to a server request") })
		}
	}
	t.mu.Lock()
	if t.closing {
		t.deadErr = transportErr("session closed")
	} else {
		t.deadErr = transportErr("the HTTP+SSE stream %s ended: %w", targets.RedactSecrets(t.sseURL), err)
	}
	closing, dead := t.closing, t.deadErr
	t.mu.Unlock()
	close(t.failed)
	if n := t.calls.notes.Load(); n != nil && !closing {
		n.dropLegacy(dead) // their notifications had no other way to come
	}
}

// background runs f with a short deadline of its own in a goroutine that
// close waits for.
func (t *sseTransport) background(f func(ctx context.Context)) {
	t.bg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		f(ctx)
	})
}

// setEra records the version for the MCP-Protocol-Version header, which
// the specification asks of HTTP clients from 2025-06-18 on (only when one
// of those versions is forced over this transport); cancelling is the same
// in every version.
func (t *sseTransport) setEra(version string, _ bool) {
	t.mu.Lock()
	t.version = version
	t.mu.Unlock()
}

// legacyVersion is the version the HTTP+SSE transport belongs to.
func (t *sseTransport) legacyVersion() string { return protocol.V20241105 }

// close ends the GET stream (the server ends the session with it), waits
// for the reader and the background POSTs, and frees the connections.
func (t *sseTransport) close() error {
	t.closeOnce.Do(func() {
		t.mu.Lock()
		t.closing = true
		t.mu.Unlock()
		t.stopStream()
		<-t.readerDone
		t.bg.Wait()
		t.client.CloseIdleConnections()
	})
	return nil
}

var _ legacyOnlyTransport = (*sseTransport)(nil)
