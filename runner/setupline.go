package runner

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
)

// The line a terminal shows before a run's first turn: what connecting
// and discovering wait for, so a server that starts slowly (or never
// answers) is never met with silence. Like the run's progress line it is
// for people: only on a terminal, never with --quiet, rewritten in place
// and erased before anything else is printed.

// setupLine is that line: the current step, when it began, and a ticker
// that redraws it each second so the elapsed time of a slow step shows.
type setupLine struct {
	w      io.Writer
	target string
	limit  time.Duration // the handshake timeout, quoted while waiting for one

	mu      sync.Mutex
	step    driver.SetupStep
	since   time.Time // when step.Stage and step.Doing began
	shown   bool
	stopped bool

	done chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// SetupLine returns the step callback of a run or a discovery and the
// stop that erases the line and ends its ticker; when w is not a
// terminal the callback is nil and stop does nothing. stop may be called
// more than once and must be called before the command returns.
func SetupLine(w io.Writer, terminal bool, target string, limit time.Duration) (func(driver.SetupStep), func()) {
	if !terminal {
		return nil, func() {}
	}
	if limit <= 0 {
		limit = driver.DefaultHandshakeTimeout
	}
	l := &setupLine{w: w, target: target, limit: limit, done: make(chan struct{})}
	l.wg.Add(1)
	go l.tick()
	return l.tell, l.stop
}

func (l *setupLine) tell(st driver.SetupStep) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	if st.Stage == driver.StageReady { // the schedule starts: the line has said its part
		l.stopped = true
		ClearProgress(l.w, l.shown)
		return
	}
	if st.Stage != l.step.Stage || st.Doing != l.step.Doing {
		l.since = time.Now()
	}
	l.step = st
	l.draw()
}

func (l *setupLine) tick() {
	defer l.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-l.done:
			return
		case <-t.C:
			l.mu.Lock()
			if l.shown && !l.stopped {
				l.draw()
			}
			l.mu.Unlock()
		}
	}
}

func (l *setupLine) stop() {
	l.once.Do(func() {
		close(l.done)
		l.wg.Wait()
		l.mu.Lock()
		defer l.mu.Unlock()
		l.stopped = true
		ClearProgress(l.w, l.shown)
	})
}

// draw rewrites the line; l.mu is held.
func (l *setupLine) draw() {
	fmt.Fprintf(l.w, "\r\033[K%s", setupText(l.target, l.step, time.Since(l.since), l.limit))
	l.shown = true
}

// setupText is the line for step st of target, begun elapsed ago: the
// elapsed time is shown once a step takes a second or more (a slow one).
func setupText(target string, st driver.SetupStep, elapsed time.Duration, limit time.Duration) string {
	slow := ""
	if elapsed >= time.Second {
		slow = " (" + seconds(elapsed) + ")"
	}
	switch st.Stage {
	case driver.StageConnect:
		var doing string
		switch st.Doing {
		case "start":
			doing = "starting the server"
		case "handshake":
			doing = "waiting for the server to answer the handshake"
			if slow != "" {
				slow = fmt.Sprintf(", %s of the %s handshake timeout", seconds(elapsed), numfmt.Duration(limit))
			}
		default:
			doing = "sessions opening"
		}
		sessions := ""
		if st.Of > 1 {
			sessions = fmt.Sprintf(" (%d/%d sessions connected)", st.Done, st.Of)
			if st.Failed > 0 {
				sessions = fmt.Sprintf(" (%d/%d sessions connected, %d failed)", st.Done, st.Of, st.Failed)
			}
		}
		return fmt.Sprintf("readbench: connecting to %s: %s%s%s", target, doing, sessions, slow)
	case driver.StageDiscover:
		var doing string
		switch {
		case st.Doing == "sizes":
			doing = fmt.Sprintf("reading resources to learn their sizes, %d of %d", st.Done, st.Of)
		case st.Done > 0:
			doing = fmt.Sprintf("%s, page %d (%d listed)", st.Doing, st.Done, st.Listed)
		default:
			doing = st.Doing
		}
		return fmt.Sprintf("readbench: discovering %s: %s%s", target, doing, slow)
	}
	return "readbench: " + target + ": " + st.Doing + slow
}

// seconds formats a wait to whole seconds.
func seconds(d time.Duration) string { return d.Truncate(time.Second).String() }

// ClearProgress erases the line a view redraws in place (the setup line,
// the progress line) when one was shown, before anything else is printed.
func ClearProgress(w io.Writer, shown bool) {
	if shown {
		fmt.Fprint(w, "\r\033[K")
	}
}
