package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/runner"
)

// How readbench answers SIGINT and SIGTERM; main alone installs the
// handler (no package does), and main alone exits.
//
//   - The first signal cancels the command's context with errInterrupted:
//     a run stops scheduling, cancels its reads in flight, closes its
//     sessions (a stdio child's process group gets SIGTERM, then SIGKILL),
//     saves the partial result (atomically, or through a device: results.WriteFile) and
//     exits. Whatever the target does, the process is gone within
//     stopWithin: past it, the children are killed and readbench exits
//     with exitInterrupted.
//   - A second signal kills the children at once (that alone unblocks
//     whatever still waited on them), lets a result being saved finish
//     for at most secondGrace, and exits with exitInterrupted.

// errInterrupted is the cause of the command's context when a signal
// ended it.
var errInterrupted = errors.New("interrupted")

// The bounds of an interrupted exit: the whole of it after the first
// signal, and the save in progress after the second.
const (
	stopWithin  = 4500 * time.Millisecond
	secondGrace = time.Second
)

// interrupts is the signal handling of one process.
type interrupts struct {
	command      string // the command being run ("run", "serve"; "" when none): what stopping means
	cancel       context.CancelCauseFunc
	stderr       io.Writer
	tty          bool      // stderr is a terminal: a progress line may be on it
	killChildren func()    // ends every child process group at once
	exit         func(int) // os.Exit
	stopWithin   time.Duration
	secondGrace  time.Duration
}

// watch handles sigs until done is closed (the command returned). It is
// main's goroutine: nothing else may call exit.
func (h *interrupts) watch(sigs <-chan os.Signal, done <-chan struct{}) {
	var sig os.Signal
	select {
	case sig = <-sigs:
	case <-done:
		return
	}
	h.say(h.stopping(sig))
	h.cancel(errInterrupted)
	limit := time.NewTimer(h.stopWithin)
	defer limit.Stop()
	select {
	case <-done:
		return
	case <-sigs:
		h.say("readbench: interrupted again: ending the servers it started and quitting")
		h.killChildren()
		grace := time.NewTimer(h.secondGrace)
		defer grace.Stop()
		select {
		case <-done: // the save in progress finished: main exits
			return
		case <-grace.C:
		}
	case <-limit.C:
		h.say(fmt.Sprintf("readbench: still not stopped %s after the interrupt: ending the servers it started and quitting", numfmt.Duration(h.stopWithin)))
		h.killChildren()
	}
	h.exit(exitInterrupted)
}

// stopping is what the first signal is answered with: what the command
// does now. Only a run (and capacity's runs) has a measurement to save; a
// server stopped by its supervisor (SIGTERM) is shutting down, not
// interrupted.
func (h *interrupts) stopping(sig os.Signal) string {
	what := "interrupted"
	if sig == syscall.SIGTERM {
		what = "terminated (SIGTERM)"
	}
	switch h.command {
	case "run", "capacity", "ab":
		return "readbench: " + what + ": stopping; a run saves what it measured (interrupt again to quit at once)"
	case "serve":
		return "readbench serve: " + what + ": shutting down"
	}
	return "readbench: " + what + ": stopping (interrupt again to quit at once)"
}

// say prints one line on stderr, on a line of its own even when a
// progress line is shown.
func (h *interrupts) say(line string) {
	runner.ClearProgress(h.stderr, h.tty)
	fmt.Fprintln(h.stderr, line)
}

// interrupted reports whether ctx ended because of a signal.
func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}
