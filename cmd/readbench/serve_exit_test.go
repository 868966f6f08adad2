//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// TestServeInterruptExits130: `readbench serve`, over stdio and over HTTP,
// stopped by SIGINT or SIGTERM exits 130 as every command does when
// interrupted (the help says so; it used to exit 0), within 5 s, and says
// it is shutting down once, with no empty "readbench:" line after it.
func TestServeInterruptExits130(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"--stdio", "--listen"} {
		for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
			t.Run(mode+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				code, stderr := interruptServe(t, mode, sig)
				if code != exitInterrupted {
					t.Errorf("exit %d after %v, want %d:\n%s", code, sig, exitInterrupted, stderr)
				}
				if !strings.Contains(stderr, "shutting down") || strings.Contains(stderr, "readbench: \n") {
					t.Errorf("stderr:\n%s", stderr)
				}
			})
		}
	}
}

// interruptServe starts `readbench serve MODE`, waits until it serves
// (an answered ping on stdio, the address line over HTTP), sends sig and
// returns the exit code and everything it wrote on stderr.
func interruptServe(t *testing.T, mode string, sig os.Signal) (int, string) {
	t.Helper()
	args := []string{"serve", "--stdio"}
	if mode == "--listen" {
		args = []string{"serve", "--listen", "127.0.0.1:0"}
	}
	cmd := testproc.Own(t, exec.Command(binary, args...))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	errLines := bufio.NewScanner(stderr)
	var said []string
	if mode == "--stdio" {
		_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
		if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
			t.Fatalf("no answer to a ping: %q, %v", line, err)
		}
	} else {
		for errLines.Scan() {
			said = append(said, errLines.Text())
			if strings.Contains(errLines.Text(), "/mcp") {
				break
			}
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for errLines.Scan() {
			said = append(said, errLines.Text())
		}
		done <- cmd.Wait()
	}()
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("serve %s still running 5 s after %v", mode, sig)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, strings.Join(said, "\n") + "\n"
}
