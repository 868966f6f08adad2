package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// `readbench serve --listen` for the end-to-end tests: a server of a
// test's own (startServe and its kin, ended with the test), or the one
// plain server that tests which only read documents share (sharedServe).

// startServe runs `readbench serve --listen 127.0.0.1:0` and returns its URL.
func startServe(t *testing.T, extra ...string) string {
	url, _ := startServeProc(t, extra...)
	return url
}

// startServeProc is startServe that also returns the server's process.
func startServeProc(t *testing.T, extra ...string) (string, *os.Process) {
	return startServeAt(t, "127.0.0.1:0", extra...)
}

// startServeAt runs `readbench serve --listen addr` until the test ends and
// returns its URL and process.
func startServeAt(t *testing.T, addr string, extra ...string) (string, *os.Process) {
	t.Helper()
	s, err := startServer(addr, extra...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	return s.url, s.cmd.Process
}

// server is a running `readbench serve --listen`.
type server struct {
	url     string
	cmd     *exec.Cmd
	cancel  context.CancelFunc
	drained chan struct{} // closed when its stderr reached EOF
}

// stop ends the server and waits for it and for the goroutine draining
// its stderr.
func (s *server) stop() {
	s.cancel()
	<-s.drained
	_ = s.cmd.Wait()
}

var serveAddrRE = regexp.MustCompile(`https?://127\.0\.0\.1:\d+/mcp`)

// startServer starts `readbench serve --listen addr` and returns once it printed
// the address it serves at.
func startServer(addr string, extra ...string) (*server, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := testproc.Shared(exec.CommandContext(ctx, binary, append([]string{"serve", "--listen", addr}, extra...)...))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	s := &server{cmd: cmd, cancel: cancel, drained: make(chan struct{})}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if u := serveAddrRE.FindString(sc.Text()); u != "" {
			s.url = u
			break
		}
	}
	go func() { // keep draining so the server never blocks on stderr
		defer close(s.drained)
		for sc.Scan() {
		}
	}()
	if s.url == "" {
		s.stop()
		return nil, fmt.Errorf("serve on %s printed no address (the port may still be taken)", addr)
	}
	return s, nil
}

// shared is the plain server sharedServe starts on first use; the
// teardown of TestMain stops it.
var shared sharedServer

type sharedServer struct {
	once sync.Once
	s    *server
	err  error
}

// sharedServe returns the URL of one plain `readbench serve --listen`
// (no option) shared by the tests that only read documents from it: a
// test that needs the server to itself (its timing, its process, its
// options, or its death) starts its own with startServe.
func sharedServe(t *testing.T) string {
	t.Helper()
	shared.once.Do(func() { shared.s, shared.err = startServer("127.0.0.1:0") })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.s.url
}

// stop ends the shared server, if it was started.
func (s *sharedServer) stop() {
	if s.s != nil {
		s.s.stop()
	}
}

// eventually polls cond until it holds, for at most within, and fails the
// test naming what it waited for when it never did. It returns as soon as
// cond holds: a bound on a wait, never a pause.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !poll(within, cond) {
		t.Fatalf("%s: not within %v", what, within)
	}
}

// poll reports whether cond held within the bound, checking it every few
// milliseconds.
func poll(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}
