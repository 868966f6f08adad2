package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/readbench/readbench/protocol"
)

// stdioTransport speaks newline-delimited JSON-RPC to a child process it
// owns. Many requests share the pipe; answers come in any order and are
// matched by id.
type stdioTransport struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tailBuffer
	late   lateFunc

	wmu sync.Mutex // serialises writes so messages never interleave

	mu      sync.Mutex
	pending map[int64]chan *answer
	tombs   tombstones // cancelled ids → when, to spot late answers

	failed  chan struct{} // closed when the child's stdout ends
	deadErr error         // set before failed is closed
	exited  chan struct{} // closed when the reader has reaped the child

	// For the server's cost (cost.go): when the child was spawned, and how
	// long after that its first message of any kind came (0: none yet).
	spawned   time.Time
	firstLine atomic.Int64
}

// startStdio spawns argv (no shell) and starts reading its answers.
func startStdio(argv []string, stderr io.Writer, late lateFunc) (*stdioTransport, error) {
	if len(argv) == 0 {
		return nil, errors.New("stdio target: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	t := &stdioTransport{
		cmd:     cmd,
		stderr:  &tailBuffer{max: 4096},
		late:    late,
		pending: make(map[int64]chan *answer),
		failed:  make(chan struct{}),
		exited:  make(chan struct{}),
	}
	if stderr != nil {
		cmd.Stderr = io.MultiWriter(t.stderr, stderr)
	} else {
		cmd.Stderr = t.stderr
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("stdio target: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("stdio target: %w", err)
	}
	t.spawned = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("stdio target: start %q: %w", argv[0], err)
	}
	t.stdin = stdin
	go t.readLoop(stdout)
	return t, nil
}

// pid is the child's process id, for the cost sampler.
func (t *stdioTransport) pid() int { return t.cmd.Process.Pid }

func (t *stdioTransport) setEra(string, bool) {} // stdio cancels the same way in both eras

// readLoop owns the child's stdout; when it ends the child is reaped and
// every waiting call fails at once with the exit status.
func (t *stdioTransport) readLoop(stdout io.Reader) {
	defer close(t.exited)
	lr := protocol.NewLineReader(stdout)
	var readErr error
	for {
		line, err := lr.NextOwned() // answers keep their bytes: no copy
		if err != nil {
			readErr = err
			break
		}
		now := time.Now()
		t.firstLine.CompareAndSwap(0, int64(max(now.Sub(t.spawned), 1)))
		t.dispatch(line, lr.FirstByte(), now)
	}
	waitErr := t.cmd.Wait()
	msg := "server process closed its stdout"
	if waitErr != nil {
		msg = "server process exited: " + waitErr.Error()
	} else if t.cmd.ProcessState != nil {
		msg = "server process exited: " + t.cmd.ProcessState.String()
	}
	if readErr != nil && readErr != io.EOF {
		msg += " (reading stdout: " + readErr.Error() + ")"
	}
	if tail := strings.TrimSpace(t.stderr.String()); tail != "" {
		msg += "; its stderr ends: " + tail
	}
	t.deadErr = transportErr("%s", msg)
	close(t.failed)
}

// dispatch routes one message: an answer to its caller (or to the late
// counter when its read was cancelled), a server request to a reply.
func (t *stdioTransport) dispatch(line []byte, first, now time.Time) {
	id, method := routing(line)
	if method != "" {
		if id != nil {
			t.replyToServer(id, method)
		}
		return // notifications (logging, progress) are not answers
	}
	n, ok := protocol.ParseIntID(id)
	if !ok {
		return // not an answer to anything we sent
	}
	t.mu.Lock()
	ch, waiting := t.pending[n]
	if waiting {
		delete(t.pending, n)
	}
	cancelledAt, isLate := t.tombs.take(n)
	t.mu.Unlock()
	wire := int64(len(line)) + 1 // the newline is framing
	switch {
	case waiting:
		ch <- &answer{body: line, wireBytes: wire, firstByte: first, done: now}
	case isLate && t.late != nil:
		t.late(wire, now.Sub(cancelledAt))
	}
}

// replyToServer answers requests a server may send a client: ping gets an
// empty result, anything else method-not-found (readbench offers no
// client capabilities).
func (t *stdioTransport) replyToServer(id []byte, method string) {
	var msg []byte
	if method == protocol.MethodPing {
		msg = protocol.AppendResult(nil, id, []byte("{}"))
	} else {
		msg = protocol.AppendError(nil, id, protocol.NewError(protocol.CodeMethodNotFound, "readbench offers no "+method, nil))
	}
	_ = t.write(msg)
}

func (t *stdioTransport) write(msg []byte) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	if _, err := t.stdin.Write(buf); err != nil {
		select {
		case <-t.failed:
			return t.deadErr
		default:
		}
		return transportErr("write to server stdin: %v", err)
	}
	return nil
}

func (t *stdioTransport) call(ctx context.Context, req request) (*answer, error) {
	ch := make(chan *answer, 1)
	t.mu.Lock()
	t.pending[req.id] = ch
	t.mu.Unlock()
	sent := time.Now()
	if err := t.write(req.body); err != nil {
		t.forget(req.id)
		return nil, err
	}
	select {
	case a := <-ch:
		a.sent = sent
		return a, nil
	case <-t.failed:
		t.forget(req.id)
		return nil, t.deadErr
	case <-ctx.Done():
	}
	// Cancelled. If the answer raced in, it is ours after all.
	t.mu.Lock()
	_, stillPending := t.pending[req.id]
	if stillPending {
		delete(t.pending, req.id)
		t.tombs.add(req.id, time.Now())
	}
	t.mu.Unlock()
	if !stillPending {
		a := <-ch
		a.sent = sent
		return a, nil
	}
	t.sendCancel(req.id, ctx)
	return nil, ctx.Err()
}

// sendCancel tells the server to stop: notifications/cancelled, in both
// eras on stdio. initialize is never cancelled (the session never does).
func (t *stdioTransport) sendCancel(id int64, ctx context.Context) {
	reason := "turn deadline"
	if errors.Is(context.Cause(ctx), errReadTimeout) {
		reason = "read timeout"
	}
	msg, err := protocol.AppendRequest(nil, nil, protocol.MethodCancelled, map[string]any{"requestId": id, "reason": reason})
	if err == nil {
		_ = t.write(msg)
	}
}

func (t *stdioTransport) forget(id int64) {
	t.mu.Lock()
	delete(t.pending, id)
	t.mu.Unlock()
}

func (t *stdioTransport) notify(_ context.Context, req request) error { return t.write(req.body) }

// close ends the child as the specification's stdio shutdown says:
// close its stdin, wait, then SIGTERM, wait, then SIGKILL.
func (t *stdioTransport) close() error {
	_ = t.stdin.Close()
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Kill} {
		select {
		case <-t.exited:
			return nil
		case <-time.After(time.Second):
			_ = t.cmd.Process.Signal(sig)
		}
	}
	<-t.exited
	return nil
}

// tailBuffer keeps the last max bytes written: the end of a child's stderr
// explains why it died, and a chatty child must not grow memory.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
