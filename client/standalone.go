package client

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/internal/h1"
	"github.com/readbench/readbench/protocol"
)

// standalone is a legacy Streamable HTTP session's standalone stream: a
// GET of the endpoint (Accept: text/event-stream, the session id) on which
// the server sends what belongs to no request, resource notifications
// among it. When it ends it is opened again after the server's retry
// (SEP-1699), with Last-Event-ID when the server gave its events ids, so
// a server that keeps them replays what was sent meanwhile; a server that
// gives none may have lost notifications, which the driver sees as
// changes never notified. maxResumeFailures opens in a row that fail end
// every legacy subscription of the session (EndDropped).
type standalone struct {
	t    *httpTransport
	n    *notices
	life context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	opened  chan struct{} // closed when the first GET was answered
	openErr error         // set before opened is closed

	resumes  atomic.Int64 // ended and about to be opened again
	reopened atomic.Int64 // opened again
	// keepAlives are the comment lines read on every opening
	keepAlives atomic.Int64

	gapMu sync.Mutex
	gaps  []StreamGap // closed gaps, at most maxStreamGaps (the last stretched)
	down  time.Time   // the open gap's start; zero while the stream is up

	// the goroutine's own
	lastID string
	hasID  bool
	retry  time.Duration
}

// Bounds of resuming a standalone stream.
const (
	maxResumeFailures = 3
	defaultRetry      = 500 * time.Millisecond
	maxRetry          = 30 * time.Second
)

// ensureStandalone opens the session's standalone stream, once, and waits
// (within ctx) until the server answered its GET. A stream that failed to
// open is forgotten, so a later Subscribe tries again.
func (n *notices) ensureStandalone(ctx context.Context, t *httpTransport) error {
	n.mu.Lock()
	st := n.stream
	if st == nil {
		life, stop := context.WithCancel(context.Background())
		st = &standalone{t: t, n: n, life: life, stop: stop, opened: make(chan struct{}), retry: defaultRetry}
		n.stream = st
		st.wg.Go(st.run)
	}
	n.mu.Unlock()
	select {
	case <-st.opened:
	case <-ctx.Done():
		return fmt.Errorf("opening the standalone GET stream: %w", ctx.Err())
	}
	if st.openErr != nil {
		n.mu.Lock()
		if n.stream == st {
			n.stream = nil
		}
		n.mu.Unlock()
		st.close()
		return st.openErr
	}
	return nil
}

// close ends the stream and waits for its goroutine.
func (st *standalone) close() {
	st.stop()
	st.wg.Wait()
}

// run opens the stream, reads it, and opens it again each time it ends,
// until close or maxResumeFailures failed opens.
func (st *standalone) run() {
	first, failures := true, 0
	for {
		body, err := st.open()
		if first {
			first, st.openErr = false, err
			close(st.opened)
			if err != nil {
				return
			}
		} else if err != nil {
			if st.life.Err() != nil {
				return
			}
			if failures++; failures >= maxResumeFailures {
				st.n.dropLegacy(fmt.Errorf("%w: the standalone GET stream ended and could not be opened again (%d tries): %w", ErrTransport, failures, err))
				return
			}
			if !st.sleep() {
				return
			}
			continue
		}
		st.up(time.Now())
		failures = 0
		st.read(body)
		body.Close()
		if st.life.Err() != nil {
			return
		}
		st.goneDown(time.Now())
		st.resumes.Add(1)
		if !st.sleep() {
			return
		}
	}
}

// sleep waits the server's retry; false when the stream was closed.
func (st *standalone) sleep() bool {
	t := time.NewTimer(st.retry)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-st.life.Done():
		return false
	}
}

// open sends the GET and returns the stream's body.
func (st *standalone) open() (io.ReadCloser, error) {
	t := st.t
	resp, _, err := t.auth.do(st.life, t.client.Do, "GET (standalone stream)", func(auth.Token) (*http.Request, error) {
		hr, err := http.NewRequestWithContext(st.life, http.MethodGet, t.url, nil)
		if err != nil {
			return nil, fmt.Errorf("build request: %w", err)
		}
		sid, version, modern := t.state()
		t.setCommon(hr, sid, version, modern, http.MethodGet)
		hr.Header.Set("Accept", protocol.ContentTypeSSE)
		if st.hasID {
			hr.Header.Set(protocol.HeaderLastEventID, st.lastID)
		}
		return hr, nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: GET (standalone stream): %w", ErrTransport, err)
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode == http.StatusOK && ct == protocol.ContentTypeSSE {
		body := resp.Body
		resp.Request, resp.Header = nil, nil // the stream keeps its body alone (see listenHTTP)
		return body, nil
	}
	b, _ := readBody(resp, 4096)
	resp.Body.Close()
	if resp.StatusCode == http.StatusMethodNotAllowed {
		return nil, &RefusedError{Method: "GET (standalone stream)", Status: resp.StatusCode, Err: errNoStandalone}
	}
	return nil, &RefusedError{Method: "GET (standalone stream)", Status: resp.StatusCode, Err: statusError(resp.StatusCode, "GET (standalone stream)", b)}
}

// read takes the stream's events until it ends: each event's id and retry
// are kept for resuming, each message routed by the session's notices.
// Between events the stream waits in AwaitBody, in this frame, the
// event's reading and routing a call deeper (standaloneEvent): the
// garbage collector can then shrink an idle stream's stack, as a listen
// stream's (readListen).
func (st *standalone) read(body io.Reader) {
	ls := &listenState{r: newStreamReader(body)}
	base := st.keepAlives.Load()
	for {
		if ls.r.Buffered() == 0 {
			h1.AwaitBody(body)
		}
		if !st.standaloneEvent(ls, base) {
			return
		}
	}
}

// standaloneEvent reads one event of the stream and routes it; false when
// the stream ended.
//
//go:noinline
func (st *standalone) standaloneEvent(ls *listenState, base int64) bool {
	r := ls.r
	ev, rerr := r.NextInto(ls.msg)
	if ev.Data != nil {
		ls.msg = ev.Data
	}
	st.keepAlives.Store(base + r.Comments())
	if ev.HasID {
		st.lastID, st.hasID = ev.ID, true
	}
	if ev.HasRetry {
		st.retry = min(time.Duration(ev.Retry)*time.Millisecond, maxRetry)
	}
	data, over, err := eventOf(ev, rerr)
	if err != nil {
		return false
	}
	if data == nil && !over {
		return true
	}
	at := time.Now()
	if over {
		st.n.unreadable.Add(1)
		return true
	}
	if id, method := routing(data); id != nil {
		if method != "" {
			st.t.replyInBackground(replyToServer(id, method)) // a ping on the stream
		}
		return true
	}
	st.n.arrived(data, at)
	if cap(ls.msg) > 4<<10 {
		ls.msg = nil
	}
	return true
}
