package client

import (
	"errors"
	"io/fs"
	"net"
	"os/exec"
	"strconv"

	"github.com/readbench/readbench/internal/h1"
)

// Unreachable reports whether err is a target that could not be reached
// at all: nothing listens where it points (a refused or timed-out
// connection, an unknown host), or its stdio command cannot be started
// (no such file, not executable). Such a target is not running, which is
// not the same finding as a server that answered and broke the protocol:
// a check must not say that a server it never met breaks the read
// contract.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var start *startError
	if errors.As(err, &start) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// startError is a stdio command that could not be started: the program
// does not exist, is not executable, or the system refused to start it.
type startError struct {
	program string
	err     error
}

func (e *startError) Error() string {
	var ee *exec.Error
	switch {
	case errors.As(e.err, &ee) && errors.Is(ee.Err, exec.ErrNotFound):
		return "stdio target: no command " + strconv.Quote(e.program) + " on the PATH"
	case errors.Is(e.err, fs.ErrNotExist):
		return "stdio target: " + strconv.Quote(e.program) + " does not exist"
	case errors.Is(e.err, fs.ErrPermission):
		return "stdio target: " + strconv.Quote(e.program) + " is not executable"
	}
	return "stdio target: start " + strconv.Quote(e.program) + ": " + e.err.Error()
}

// Unwrap makes a command that cannot start a transport failure for
// errors.Is, and keeps the cause in the chain.
func (e *startError) Unwrap() []error { return []error{ErrTransport, e.err} }

// undelivered reports whether err ended a request before it reached the
// server: the target could not be reached at all (Unreachable), the
// connection failed before a byte of the request was written (a pooled
// connection the server had closed, then no new one), or a stdio
// request was never written whole to the child's stdin (undeliveredError).
// Such a request's trace context exists nowhere but here
// (Answer.Unreached). A request whose bytes left may have reached the
// server, which may have begun a span for it: it is never undelivered.
func undelivered(err error) bool {
	var u *undeliveredError
	return errors.As(err, &u) || Unreachable(err) || h1.NothingWritten(err)
}

// undeliveredError marks a stdio request never handed whole to the
// child's stdin: the server was dead, the session closed, or the write
// failed. It is the error it wraps for every other purpose.
type undeliveredError struct{ err error }

func (e *undeliveredError) Error() string { return e.err.Error() }
func (e *undeliveredError) Unwrap() error { return e.err }
