package client

import (
	"context"
	"time"
)

// Writing to a stdio child. One goroutine per session owns the child's
// stdin; callers hand it whole messages over an unbuffered channel, so a
// message is taken only when the previous one is written and never cut in
// half. A child that stops reading its stdin (a wedged event loop) fills
// the pipe and blocks that goroutine alone: every caller waits with its
// context, so a read's timeout and its turn's deadline always fire, and a
// cancellation or a reply is sent in the background with a short bound of
// its own. Closing the session closes stdin, which frees the writer.

// outMsg is one message for the writer: its bytes, newline included, and
// where the writer says how the write went.
type outMsg struct {
	buf  []byte
	done chan error // buffered: the writer never waits on a caller gone
}

// backgroundSendTimeout bounds a message sent in the background (a
// notifications/cancelled, a reply to a server's request): a child that
// reads nothing must not keep it, or the session's close, waiting.
const backgroundSendTimeout = 2 * time.Second

// writeLoop owns stdin until close.
func (t *stdioTransport) writeLoop() {
	defer close(t.writerDone)
	var failed error // once a write fails, stdin is broken for good
	for {
		select {
		case m := <-t.out:
			if failed == nil {
				if _, err := t.stdin.Write(m.buf); err != nil {
					failed = t.writeFailure(err)
				}
			}
			m.done <- failed
		case <-t.stop:
			return
		}
	}
}

// deathWait bounds how long a failed write waits for the reader to see
// the child's end: a pipe broken by a child that exited is explained by
// its exit status and stderr (exitError), not by "broken pipe", whichever
// of the writer and the reader noticed first.
const deathWait = time.Second

// writeFailure explains a failed write: the child's death when it is
// known within deathWait, else the pipe's error.
func (t *stdioTransport) writeFailure(err error) error {
	timer := time.NewTimer(deathWait)
	defer timer.Stop()
	select {
	case <-t.failed:
		return t.deadErr
	case <-t.stop:
		return transportErr("session closed")
	case <-timer.C:
	}
	return transportErr("write to server stdin: %w", err)
}

// write hands msg to the writer and waits for it to be written, or for
// ctx to end. handed reports whether the writer took the message: once
// taken it is written whole, however long the child takes to read it, so
// a caller whose context ended after the hand-over must treat the message
// as sent.
func (t *stdioTransport) write(ctx context.Context, msg []byte) (handed bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err // never hand over a message whose caller is gone
	}
	m := outMsg{buf: append(append(make([]byte, 0, len(msg)+1), msg...), '\n'), done: make(chan error, 1)}
	select {
	case t.out <- m:
	case <-ctx.Done():
		return false, ctx.Err()
	case <-t.failed:
		return false, t.deadErr
	case <-t.stop:
		return false, transportErr("session closed")
	}
	select {
	case err := <-m.done:
		return true, err
	case <-ctx.Done():
		return true, ctx.Err()
	case <-t.failed:
		return true, t.deadErr
	}
}

// background sends msg without making anyone wait for it; once the
// session is closing it sends nothing.
func (t *stdioTransport) background(msg []byte) { t.backgroundRequest(Request{body: msg}) }

// backgroundRequest is background for a request or notification, whose
// OnAccepted hook is told once it is written whole to the child's stdin.
func (t *stdioTransport) backgroundRequest(req Request) {
	t.bgMu.Lock()
	defer t.bgMu.Unlock()
	select {
	case <-t.stop:
		return
	default:
	}
	t.bg.Go(func() { t.sendInline(req) })
}

// stopWriting closes stop: the writer returns, no background send starts
// any more (so close may wait for those already started).
func (t *stdioTransport) stopWriting() {
	t.bgMu.Lock()
	defer t.bgMu.Unlock()
	t.stopOnce.Do(func() { close(t.stop) })
}
