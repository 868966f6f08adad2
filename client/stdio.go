package client

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
	calls  *calls // answers matched to callers, cancelled ids remembered

	wmu sync.Mutex // serialises writes so messages never interleave

	failed  chan struct{} // closed when the child's stdout ends
	deadErr error         // set before failed is closed
	exited  chan struct{} // closed when the reader has reaped the child

	// For the server's cost (Session.Process): when the child was spawned,
	// and how long after that its first message of any kind came (0: none
	// yet).
	spawned   time.Time
	firstLine atomic.Int64
}

// startStdio spawns argv (no shell) and starts reading its answers.
func startStdio(argv []string, stderr io.Writer, late LateFunc) (*stdioTransport, error) {
	if len(argv) == 0 {
		return nil, errors.New("stdio target: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	t := &stdioTransport{
		cmd:    cmd,
		stderr: &tailBuffer{max: 4096},
		calls:  newCalls(late),
		failed: make(chan struct{}),
		exited: make(chan struct{}),
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

// dispatch routes one message (see calls.route); a line owns its bytes,
// so an answer takes it without a copy.
func (t *stdioTransport) dispatch(line []byte, first, now time.Time) {
	wire := int64(len(line)) + 1 // the newline is framing
	reply := t.calls.route(line, wire, now, func() *Answer {
		return &Answer{Body: line, WireBytes: wire, FirstByte: first, Done: now}
	})
	if reply != nil {
		_ = t.write(reply)
	}
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

func (t *stdioTransport) call(ctx context.Context, req Request) (*Answer, error) {
	ch := t.calls.add(req.ID)
	sent := time.Now()
	if err := t.write(req.body); err != nil {
		t.calls.forget(req.ID)
		return nil, err
	}
	a, cancelled, err := t.calls.wait(ctx, req.ID, ch, t.failed, func() error { return t.deadErr })
	if cancelled {
		// notifications/cancelled, in both eras on stdio. initialize is
		// never cancelled (the session never does).
		if n, nerr := cancelNotification(req.ID, cancelReason(ctx)); nerr == nil {
			_ = t.write(n.body)
		}
	}
	if err != nil {
		return nil, err
	}
	a.Sent = sent
	return a, nil
}

func (t *stdioTransport) notify(_ context.Context, req Request) error { return t.write(req.body) }

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
