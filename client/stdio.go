package client

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"
)

// stdioTransport speaks newline-delimited JSON-RPC to a child process it
// owns. Many requests share the pipe; answers come in any order and are
// matched by id. One writer goroutine owns stdin (see stdiowrite.go), so
// that a child that stops reading blocks only that goroutine: every wait
// of a caller ends with its context.
type stdioTransport struct {
	cmd       *exec.Cmd
	mark      []byte // in the environment of all it starts (markDescendants); nil: none
	stdin     io.WriteCloser
	stdout    io.Closer    // closed by close only when the child's group is dead and stdout still open
	stderr    *stderrQuote // what of its stderr explains its end (stderrquote.go)
	logged    bool         // its whole stderr also goes to a log the user keeps
	calls     *calls       // answers matched to callers, cancelled ids remembered
	maxAnswer int64        // bytes; a longer line is a protocol failure of its read

	out        chan outMsg    // to the writer goroutine; unbuffered: handed over when it is free
	stop       chan struct{}  // closed by close: the writer and background sends give up
	stopOnce   sync.Once      // closes stop
	writerDone chan struct{}  // closed when the writer goroutine has returned
	bg         sync.WaitGroup // cancellations and replies being handed to the writer
	bgMu       sync.Mutex     // orders bg.Go before close's bg.Wait

	stray *strayLines // what it printed on stdout that is not JSON-RPC, and answers to no request (stray.go)

	failed  chan struct{} // closed when the child's stdout ends
	deadErr error         // set before failed is closed
	exited  chan struct{} // closed when the reader has reaped the child

	// For the server's cost (Session.Process): when the child was spawned,
	// and how long after that its first message of any kind came (0: none
	// yet).
	spawned   time.Time
	firstLine atomic.Int64
}

// startStdio spawns argv (no shell) and starts reading its answers, each
// at most maxAnswer bytes (0: targets.DefaultMaxAnswer).
func startStdio(argv []string, stderr io.Writer, late LateFunc, maxAnswer int64) (*stdioTransport, error) {
	if len(argv) == 0 {
		return nil, errors.New("stdio target: empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	ownProcessGroup(cmd)         // procgroup_*.go: ended as a group, never outlives readbench
	mark := markDescendants(cmd) // what leaves the group is found by it (procmark.go)
	cmd.WaitDelay = time.Second  // a grandchild holding stderr open cannot keep Wait
	t := &stdioTransport{
		cmd:        cmd,
		mark:       mark,
		stderr:     &stderrQuote{},
		calls:      newCalls(late),
		maxAnswer:  answerLimit(maxAnswer),
		out:        make(chan outMsg),
		stop:       make(chan struct{}),
		writerDone: make(chan struct{}),
		stray:      newStrayLines(),
		failed:     make(chan struct{}),
		exited:     make(chan struct{}),
	}
	t.calls.stray = t.stray // answers to no request in flight are said with the stray lines
	if stderr != nil {
		t.logged = true
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
		return nil, &startError{program: argv[0], err: err}
	}
	t.stdin, t.stdout = stdin, stdout
	go t.writeLoop()
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
	readErr := t.readLines(bufio.NewReaderSize(stdout, 256<<10))
	waitErr := t.cmd.Wait()
	e := &exitError{}
	if waitErr != nil {
		e.status = waitErr.Error()
	} else if t.cmd.ProcessState != nil {
		e.status = t.cmd.ProcessState.String()
	}
	if readErr != nil && readErr != io.EOF {
		e.reading = readErr.Error()
	}
	e.stderr, e.logged = t.stderr.String(), t.logged
	e.stray = t.stray.err()
	t.deadErr = e
	close(t.failed)
	if n := t.calls.notes.Load(); n != nil {
		n.dropLegacy(e) // their notifications had no other way to come (a Session.Close ended them first)
	}
}

// deadBefore is the error of a request whose answer the child's end
// overtook (t.failed is closed): the exit, naming the request.
func (t *stdioTransport) deadBefore(method string) error {
	return unanswered(t.deadErr, method)
}

// unanswered names method as the request a dead server did not answer,
// when err is that server's exitError; other errors are returned as they
// are. The shared exitError is copied, never changed.
func unanswered(err error, method string) error {
	var e *exitError
	if !errors.As(err, &e) || e.before != "" {
		return err
	}
	c := *e
	c.before = method
	return &c
}

// exitError is a stdio server that is gone: its exit status, the request
// it did not answer (when one was waiting) and the end of its stderr. A
// server that exits before answering the handshake is often no MCP server
// at all (stdio:ls exits with status 0), so the message says which
// request it left unanswered. It unwraps to ErrTransport.
type exitError struct {
	status  string // "exit status 0", "signal: killed"; "" when only stdout closed
	reading string // an error reading its stdout, if any
	before  string // the method of the request it did not answer ("": none waiting)
	stderr  string // what of its stderr explains its end (stderrQuote)
	logged  bool   // its whole stderr is in the server's stderr log
	stray   error  // what it printed on stdout that is not JSON-RPC (nil: nothing)
}

func (e *exitError) Error() string {
	msg := "the server closed its stdout"
	if e.status != "" {
		msg = "the server exited (" + e.status + ")"
	}
	if e.before != "" {
		msg += " before answering " + e.before
	}
	if e.reading != "" {
		msg += " (reading stdout: " + e.reading + ")"
	}
	if e.stderr != "" {
		if strings.Contains(e.stderr, "\n") {
			msg += "; its stderr, " + e.stderr
			if e.logged {
				msg += "\n  (the whole of it is in the server's stderr log, saved beside the result)"
			}
		} else {
			msg += "; its stderr ends: " + e.stderr
		}
	} else if e.before != "" {
		msg += "; its stderr is empty"
	}
	if e.stray != nil {
		msg += "; " + e.stray.Error()
	}
	return msg
}

// Unwrap makes a dead server a transport failure for errors.Is.
func (e *exitError) Unwrap() error { return ErrTransport }

// readLines reads newline-delimited messages as they arrive, each piece
// of a line (however long) going through the read buffer to an inbound
// that scans and routes it (see inbound.go): no line is held whole unless
// it answers a request that is not a read. It returns the reading error.
func (t *stdioTransport) readLines(r *bufio.Reader) error {
	in := &inbound{calls: t.calls, max: t.maxAnswer, unended: "no newline"}
	head := make([]byte, 0, maxStrayQuote+utf8.UTFMax) // the line's beginning, to quote a stray one
	for {
		if _, err := r.Peek(1); err != nil { // waits for the line's first byte
			return err
		}
		in.begin(time.Now())
		head = head[:0]
		var crs int64 // '\r' at the end of what was read of the line
		var err error
		for {
			var piece []byte
			piece, err = r.ReadSlice('\n')
			if err == nil {
				piece = piece[:len(piece)-1] // the newline is framing
			}
			in.write(piece)
			head = append(head, piece[:min(len(piece), cap(head)-len(head))]...)
			crs = trailingCRs(piece, crs)
			if err != bufio.ErrBufferFull {
				break
			}
		}
		content := in.n - crs
		if content > 0 { // blank lines are skipped
			now := time.Now()
			t.firstLine.CompareAndSwap(0, int64(max(now.Sub(t.spawned), 1)))
			if reply := in.end(content+1, now); reply != nil {
				t.background(reply) // the reader never waits on stdin
			}
			// A line the stream ended inside (no newline) that began as
			// a JSON object is a message cut off, the server stopped while
			// writing it (readbench ending a slow server, the SDK writing
			// "id" last): not a line a server logged on stdout.
			if in.notJSONRPC() && !(err != nil && jsonStart(head)) {
				t.stray.add(head, content)
			}
		}
		if err != nil {
			return err
		}
	}
}

// jsonStart says whether a line's beginning opens a JSON object.
func jsonStart(head []byte) bool {
	b := bytes.TrimLeft(head, " \t\r")
	return len(b) > 0 && b[0] == '{'
}

// trailingCRs is how many '\r' end a line so far, given how many ended
// it before piece.
func trailingCRs(piece []byte, before int64) int64 {
	k := len(piece)
	for k > 0 && piece[k-1] == '\r' {
		k--
	}
	if k == 0 {
		return before + int64(len(piece))
	}
	return int64(len(piece) - k)
}

func (t *stdioTransport) call(ctx context.Context, req Request) (*Response, error) {
	ch := t.calls.addCall(req.ID, req.method, req.read)
	sent := time.Now()
	handed, err := t.write(ctx, req.body)
	if !handed || (err != nil && ctx.Err() == nil) {
		// Never sent, or the pipe broke (the child died, the session
		// closed): nothing to cancel, no answer to expect.
		t.calls.forget(req.ID)
		return nil, &undeliveredError{unanswered(err, req.method)}
	}
	if err == nil {
		req.tellAccepted() // written whole to the child's stdin
	}
	// Handed to the writer (written, or being written: a message is never
	// cut): from here on the server may answer, so a context that ends
	// leaves a tombstone and a cancellation, as for any sent request.
	// A cancellation goes in the background, so the read's end is never
	// delayed by a full pipe; a listen's is written before the call
	// returns (Request.cancelInline).
	send := t.backgroundRequest
	if req.cancelInline {
		send = t.sendInline
	}
	return t.calls.await(ctx, req, ch, sent, t.failed, func() error { return t.deadBefore(req.method) }, send)
}

// sendInline writes req before it returns, bounded as a background send
// is, and tells its OnAccepted hook once it is written.
func (t *stdioTransport) sendInline(req Request) {
	ctx, cancel := context.WithTimeout(context.Background(), backgroundSendTimeout)
	defer cancel()
	if handed, err := t.write(ctx, req.body); handed && err == nil {
		req.tellAccepted()
	}
}

func (t *stdioTransport) notify(ctx context.Context, req Request) error {
	_, err := t.write(ctx, req.body)
	return err
}

// close ends the child as the specification's stdio shutdown says:
// close its stdin, wait, then SIGTERM, wait, then SIGKILL. Closing stdin
// also frees the writer goroutine from a write the child never reads.
//
// Before stdin closes (most servers exit on it, and their orphans are
// re-parented away), the server's descendants are listed from /proc
// (proctree_linux.go), and those are ended with the group: a child that
// left the group and cleared its environment carries no mark.
func (t *stdioTransport) close() error {
	t.stopWriting()
	var tree []proc
	select {
	case <-t.exited: // reaped: its pid may be another process's now
	default:
		tree = descendants(t.cmd.Process.Pid)
	}
	_ = t.stdin.Close()
	<-t.writerDone
	t.bg.Wait()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		select {
		case <-t.exited:
			// The child is gone; what it started may not be (a wrapper
			// that left its server behind): end the rest of its group,
			// and what left the group (setsid, a daemon).
			t.signalAll(syscall.SIGKILL, tree)
			return nil
		case <-time.After(time.Second):
			select {
			case <-t.exited:
			default:
				tree = append(tree, descendants(t.cmd.Process.Pid)...) // what it started since
			}
			t.signalAll(sig, tree) // the whole group: npx's node, a shell's server; and what left it
		}
	}
	select {
	case <-t.exited:
	case <-time.After(time.Second):
		// Killed, yet its stdout is still open: a process outside the
		// group holds it. Stop reading so that the child is reaped.
		_ = t.stdout.Close()
		<-t.exited
	}
	_ = signalMarked(t.mark, syscall.SIGKILL)
	_ = signalProcs(tree, syscall.SIGKILL)
	return nil
}

// signalAll sends sig to the child's process group, to every process
// carrying the session's mark and to the descendants listed in tree:
// those that left the group (setsid), which the group's signal does not
// reach.
func (t *stdioTransport) signalAll(sig syscall.Signal, tree []proc) {
	_ = signalGroup(t.cmd.Process, sig)
	_ = signalMarked(t.mark, sig)
	_ = signalProcs(tree, sig)
}
