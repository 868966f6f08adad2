package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// openPTY opens a pseudo-terminal: the controller, read by the test, and
// the terminal end, given to readbench as its stderr, which then is a
// terminal as a person's would be.
func openPTY(t *testing.T) (ctl, term *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		needs.Missing(t, "a pseudo-terminal, /dev/ptmx ("+err.Error()+")", "run where /dev/pts is mounted")
	}
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		t.Fatalf("unlock the pty: %v", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("pty number: %v", errno)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ctl, term
}

// onTerminal runs readbench with its stderr on a pseudo-terminal and
// returns what the terminal showed and the exit code.
func onTerminal(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	ctl, term := openPTY(t)
	defer ctl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, args...))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = io.Discard, term
	var shown bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // until the terminal end is closed by all: EIO then
		defer wg.Done()
		_, _ = io.Copy(&shown, ctl)
	}()
	err := cmd.Start()
	term.Close() // the child holds its own copy
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	wg.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return shown.String(), code
}

// TestSetupLineOnTerminal: on a terminal, a run against a server that
// never answers says what it waits for, and for how long against which
// limit, until the limit expires; init says what it lists. With --quiet,
// nothing but the error.
func TestSetupLineOnTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shown, code := onTerminal(t, dir, "run", "--target", "stdio:sleep 30", "--handshake-timeout", "2500ms", "--duration", "1s", "--out", "r.json")
	for _, want := range []string{
		"readbench: connecting to stdio:sleep 30: starting the server",
		"readbench: connecting to stdio:sleep 30: waiting for the server to answer the handshake",
		"no answer within the handshake timeout of 2.5s",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal did not show %q (exit %d):\n%q", want, code, shown)
		}
	}
	// The line is redrawn once a second: which whole second it shows the
	// wait at (1s, or 2s when a busy machine delayed the redraw past the
	// next second) is the machine's; that it shows the wait against the
	// limit is the line's.
	if !strings.Contains(shown, ", 1s of the 2.5s handshake timeout") && !strings.Contains(shown, ", 2s of the 2.5s handshake timeout") {
		t.Errorf("the terminal did not show the wait against the 2.5s handshake timeout (exit %d):\n%q", code, shown)
	}
	if code != exitFail {
		t.Errorf("exit %d, want %d", code, exitFail)
	}
	quiet, _ := onTerminal(t, dir, "run", "-q", "--target", "stdio:sleep 30", "--handshake-timeout", "300ms", "--duration", "1s", "--out", "r.json")
	if strings.Contains(quiet, "connecting to") || !strings.Contains(quiet, "handshake timeout of 300ms") {
		t.Errorf("--quiet on a terminal:\n%q", quiet)
	}
	listed, code := onTerminal(t, dir, "init", "--target", "embedded")
	for _, want := range []string{
		"readbench: connecting to the embedded simulated server: waiting for the server to answer the handshake",
		"readbench: discovering the embedded simulated server: resources/list",
		"readbench: discovering the embedded simulated server: resources/templates/list",
	} {
		if !strings.Contains(listed, want) {
			t.Errorf("init: the terminal did not show %q (exit %d):\n%q", want, code, listed)
		}
	}
}
