package simserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/protocol"
)

// ServeStdio serves one stdio connection: newline-delimited JSON-RPC read
// from in, answers written to out. Requests are handled concurrently (many
// reads in flight on one pipe, answered in any order, as a real server may);
// writes are serialized so that messages never interleave.
//
// It returns nil at EOF on in, once the requests still in flight are
// answered (so `echo REQUEST | readbench serve --stdio` prints its answer);
// ErrCrashed when Options.CrashAfter is reached; the error when in or out
// fails; ctx's error when ctx is cancelled. On cancellation or a crash the
// requests in flight are cancelled and, if in is an io.Closer, it is closed
// to unblock the pending read. A Close does not unblock every reader (a
// process's stdin is usually a blocking file descriptor): then ServeStdio
// returns when the next line or EOF arrives, and a process that must stop
// at once should exit on ctx.Done or Server.Crashed rather than wait for
// it. Nothing is written to stderr; diagnostics go to Options.Logf.
func (s *Server) ServeStdio(parent context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(parent)
	var wg sync.WaitGroup
	c := &stdioConn{s: s, w: bufio.NewWriterSize(out, 64<<10), ctx: ctx, stop: cancel, wg: &wg, inflight: map[string]*inflight{}, version: protocol.LatestLegacy}
	unblock := context.AfterFunc(ctx, func() {
		if cl, ok := in.(io.Closer); ok {
			_ = cl.Close()
		}
	})
	wg.Add(1)
	go func() { // the crash watcher: a crash ends the connection
		defer wg.Done()
		select {
		case <-s.crashed:
			cancel()
		case <-ctx.Done():
		}
	}()

	err := c.loop(ctx, &wg, in)
	if err == nil {
		unblock() // a clean EOF: let the requests in flight finish and answer
		c.waitRequests()
	}
	cancel()
	wg.Wait()
	c.flush() // whatever the loop wrote last
	switch {
	case s.isCrashed():
		return ErrCrashed
	case c.writeErr() != nil:
		return c.writeErr()
	case parent.Err() != nil:
		return parent.Err()
	}
	return err
}

// loop reads and dispatches lines until EOF (nil) or an error.
func (c *stdioConn) loop(ctx context.Context, wg *sync.WaitGroup, in io.Reader) error {
	lr := protocol.NewLineReader(in)
	for {
		if !lr.HasLine() {
			c.flush() // about to wait for input: send what the loop wrote
		}
		line, err := lr.Next()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("simserver: read stdin: %w", err)
		}
		c.handle(ctx, wg, line)
		if c.s.wedged() { // a wedged event loop: stdin is never read again
			c.flush() // the requests already read are answered
			<-ctx.Done()
			return ctx.Err()
		}
	}
}

// stdioConn is the state of one stdio connection.
type stdioConn struct {
	s *Server

	wmu     sync.Mutex
	w       *bufio.Writer
	werr    error
	writers atomic.Int32       // goroutines in write: the last one out flushes
	ctx     context.Context    // the connection's: its end ends every goroutine of it
	stop    context.CancelFunc // ends the connection (a failed write)
	wg      *sync.WaitGroup    // every goroutine of the connection: ServeStdio waits for them
	reqs    sync.WaitGroup     // requests in flight

	// legacy is the connection's resources/subscribe set, and its
	// notifier the goroutine writing its notes (subscribe.go); guarded by mu.
	legacy *subscriber

	mu       sync.Mutex
	version  string               // negotiated by initialize; LatestLegacy until then
	inflight map[string]*inflight // requests being handled, by raw id
}

// inflight is a request being handled, cancellable by
// notifications/cancelled.
type inflight struct {
	cancel context.CancelFunc
}

// handle routes one line: requests run in their own goroutine (initialize
// excepted: it sets the version later requests are served in; and a read
// that waits for nothing, which the loop answers itself, see instant),
// notifications are applied at once. What the loop answers itself goes
// through the write buffer, flushed when the loop is about to wait for
// input: a burst of requests is answered with one write.
func (c *stdioConn) handle(ctx context.Context, wg *sync.WaitGroup, line []byte) {
	msg, pre, err := decodeMessage(line)
	if err != nil {
		c.put([][]byte{protocol.AppendError(nil, nil, protocol.NewError(protocol.CodeParseError, "Parse error: "+err.Error(), nil))})
		return
	}
	switch {
	case msg.IsNotification():
		c.notify(msg, pre)
	case msg.IsRequest():
		cl, perr := newCall(msg, pre)
		cl.host = c
		if perr == nil {
			c.mu.Lock()
			perr = cl.resolveEra(c.version)
			c.mu.Unlock()
		}
		if perr != nil {
			c.put(c.s.fail(cl.id, perr).parts)
			return
		}
		if c.s.opts.EndlessHandshake && isHandshake(cl.method) {
			c.endlessStdio(cl.id)
			return
		}
		if cl.method == protocol.MethodInitialize {
			a := c.s.serve(ctx, ctx, cl)
			c.mu.Lock()
			c.version = a.initialized
			c.mu.Unlock()
			c.put(a.parts)
			return
		}
		cl.prepare(&c.s.specs)
		if c.s.instant(cl) {
			c.answerNow(ctx, cl)
			return
		}
		c.start(ctx, cl)
		if cl.spec != nil && cl.spec.Hold > 0 {
			c.hold(ctx, cl.spec.Hold)
		}
	case msg.IsResponse():
		c.s.clientReplied(msg.ID) // the reply to a request of ours (wire=ping, wire=sampling)
	case len(msg.ID) > 0 && msg.Method == "" && !msg.IsResponse():
		c.put([][]byte{protocol.AppendError(nil, msg.ID, protocol.NewError(protocol.CodeInvalidRequest, "Invalid request: no method", nil))})
	}
	// Other responses are ignored.
}

// hold blocks the input loop for d (hold=): what the loop buffered is
// flushed first, so only what comes after the read waits.
func (c *stdioConn) hold(ctx context.Context, d time.Duration) {
	c.flush()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// inlineMax bounds the decoded size of a read the loop answers itself:
// building a cache miss of that size holds the loop up only briefly, and
// the answer fits the write buffer.
const inlineMax = 32 << 10

// instant reports whether a prepared call is a read that waits for
// nothing — no delay, stall or worker slot, no server-wide stall, no wire
// violation, small contents — so that the stdio loop can answer it
// itself instead of starting a goroutine for it: a goroutine per read
// (its stack grown anew each time) was a tenth of a small read's cost.
// Nothing is lost: such a read has no wait a notifications/cancelled
// could cut short, and it is answered before the loop reads the next
// line, as soon as a goroutine would have answered it.
func (s *Server) instant(c *call) bool {
	if c.method != protocol.MethodResourcesRead || s.workers != nil || s.opts.StallEvery > 0 {
		return false
	}
	sp := c.spec
	if sp == nil {
		return true // an error answer, or a conformance fixture
	}
	return !sp.HasDelay && sp.Stall <= 0 && sp.Hold <= 0 && sp.Wire.onRead() == WireNone && sp.Size*int64(max(sp.Entries, 1)) <= inlineMax
}

// answerNow serves an instant read on the loop.
func (c *stdioConn) answerNow(ctx context.Context, cl *call) {
	a := c.s.serve(ctx, ctx, cl)
	if a.parts == nil {
		return
	}
	if c.put(a.parts) && a.read {
		c.s.answered(&a)
	}
}

// start handles a request in a goroutine, cancellable by its id.
func (c *stdioConn) start(ctx context.Context, cl *call) {
	if cl.method == protocol.MethodSubscriptionsListen && cl.modern {
		c.startListen(ctx, cl)
		return
	}
	c.startFunc(ctx, cl, false, func(rctx context.Context) {
		a := c.s.serve(rctx, ctx, cl)
		if a.parts == nil {
			return
		}
		sent := false
		switch {
		case a.wire != WireNone:
			sent = c.writeWire(rctx, &a)
		case a.honours:
			sent = c.writeUnlessCancelled(rctx, a.parts)
		default:
			sent = c.write(a.parts)
		}
		if sent && a.read {
			c.s.answered(&a)
		}
	})
}

// startFunc runs fn, the handling of request cl, in a goroutine of the
// connection's, with a context that notifications/cancelled naming cl's
// id cancels. A long request (a listen) is not waited for at stdin's end,
// as the others are: it would never end; the connection's end ends it.
func (c *stdioConn) startFunc(ctx context.Context, cl *call, long bool, fn func(rctx context.Context)) {
	rctx, rcancel := context.WithCancel(ctx)
	key := idKey(cl.id)
	me := &inflight{cancel: rcancel}
	c.mu.Lock()
	c.inflight[key] = me
	c.mu.Unlock()
	c.wg.Add(1)
	if !long {
		c.reqs.Add(1)
	}
	go func() {
		defer c.wg.Done()
		if !long {
			defer c.reqs.Done()
		}
		defer func() {
			rcancel()
			c.mu.Lock()
			if c.inflight[key] == me {
				delete(c.inflight, key)
			}
			c.mu.Unlock()
		}()
		fn(rctx)
	}()
}

// notify applies a notification: notifications/cancelled cancels the
// request it names (an unknown or finished id is ignored, as the spec says).
func (c *stdioConn) notify(msg *protocol.Message, pre *paramsDecoder) {
	if msg.Method != protocol.MethodCancelled {
		return // notifications/initialized and anything else need nothing
	}
	cl, perr := newCall(msg, pre)
	if perr != nil || len(cl.p.RequestID) == 0 {
		return
	}
	c.mu.Lock()
	f := c.inflight[idKey(cl.p.RequestID)]
	c.mu.Unlock()
	if f != nil {
		f.cancel()
	}
}

// write sends one message and a newline, whole, from a request's
// goroutine. It flushes unless another goroutine is already waiting to
// write (that one, or the last of them, flushes both), so answers that
// are ready together go out in one write. A failed write ends the
// connection; it reports whether the message went out.
func (c *stdioConn) write(parts [][]byte) bool {
	return c.writeUnlessCancelled(context.Background(), parts)
}

// writeUnlessCancelled is write for a read that honours cancellation
// (ctx its read's): ctx is checked with the writer's
// lock held, so an answer is never written after the loop has read its
// cancel. The loop cancels ctx as it reads notifications/cancelled,
// before it reads (and answers) whatever follows, so every answer the
// loop writes after that cancel — a ping's, say — is behind this one in
// the stream, or this one is not sent.
func (c *stdioConn) writeUnlessCancelled(ctx context.Context, parts [][]byte) bool {
	c.writers.Add(1)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	last := c.writers.Add(-1) == 0
	if ctx.Err() != nil {
		if last && c.werr == nil && c.w.Buffered() > 0 {
			c.werr = c.w.Flush() // the writers waiting behind this one counted on it
		}
		return false
	}
	return c.putLocked(parts, last)
}

// put writes one message and a newline from the loop, which flushes
// before it waits for input.
func (c *stdioConn) put(parts [][]byte) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.putLocked(parts, false)
}

// putLocked writes one message with c.wmu held, and flushes when flush
// says so, or always on a server that may crash (CrashAfter): an answer
// must not die with it in the buffer.
func (c *stdioConn) putLocked(parts [][]byte, flush bool) bool {
	flush = flush || c.s.opts.CrashAfter > 0
	if c.werr != nil {
		return false
	}
	for _, p := range parts {
		if _, err := c.w.Write(p); err != nil {
			c.werr = err
			break
		}
	}
	if c.werr == nil {
		if err := c.w.WriteByte('\n'); err != nil {
			c.werr = err
		} else if flush {
			c.werr = c.w.Flush()
		}
	}
	return c.writable()
}

// flush sends whatever is buffered.
func (c *stdioConn) flush() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr == nil && c.w.Buffered() > 0 {
		c.werr = c.w.Flush()
		c.writable()
	}
}

// writable reports whether the connection can still be written to (c.wmu
// held); on a write error it logs it and ends the connection.
func (c *stdioConn) writable() bool {
	if c.werr != nil {
		c.s.logf("simserver: write stdout: %v", c.werr)
		c.stop()
		return false
	}
	return true
}

// waitRequests waits for the requests in flight to be answered.
func (c *stdioConn) waitRequests() { c.reqs.Wait() }

// idKey is the map key of a request id: its raw JSON, so that 7 and "7"
// stay different ids, as JSON-RPC says.
func idKey(raw []byte) string { return string(bytes.TrimSpace(raw)) }

func (c *stdioConn) writeErr() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return fmt.Errorf("simserver: write stdout: %w", c.werr)
	}
	return nil
}
