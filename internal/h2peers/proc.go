package h2peers

import (
	"context"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// startTimeout bounds how long a peer may take to listen: node loads the
// SDK in well under a second on an idle machine, but a 2-core machine
// shared with other tests can be many times slower.
const startTimeout = 60 * time.Second

// proc is a process a test started.
type proc struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed once it has exited and been waited for
	log    string        // the file its stdout and stderr go to
}

// start runs argv, with env added to the test's environment, as a
// process owned by the test (internal/testproc: its group is killed when
// the test ends, on failure and on go test's timeout alike), its stderr
// and, unless quiet, its stdout appended to logFile.
func start(t testing.TB, logFile string, quiet bool, env []string, argv ...string) *proc {
	t.Helper()
	out, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close() // the child has its own copy
	ctx, cancel := context.WithCancel(context.Background())
	cmd := testproc.Own(t, exec.CommandContext(ctx, argv[0], argv[1:]...))
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = out
	if !quiet {
		cmd.Stdout = out
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("%v: %v", argv, err)
	}
	p := &proc{cmd: cmd, exited: make(chan struct{}), log: logFile}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() { cancel(); <-p.exited })
	return p
}

// await polls ready until it holds, the process exits or startTimeout
// passes; it reports whether ready held.
func (p *proc) await(ready func() bool) bool {
	deadline := time.Now().Add(startTimeout)
	for {
		if ready() {
			return true
		}
		select {
		case <-p.exited:
			return ready()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// hasExited reports whether the process has ended.
func (p *proc) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// stop ends the process now and waits for it (a failed start that is
// tried again on another port).
func (p *proc) stop() {
	if p.cmd.Cancel != nil {
		_ = p.cmd.Cancel()
	}
	<-p.exited
}

// freePort returns a port of 127.0.0.1 that was free a moment ago, for a
// server that cannot be told to pick one itself and say which (the
// callers try again on another when it was taken meanwhile).
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// accepts reports whether something accepts TCP connections on addr.
func accepts(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

// bindTries is how many ports a server that is handed a free port is
// started on before the test gives up.
const bindTries = 3
