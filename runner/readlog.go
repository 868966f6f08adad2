package runner

import (
	"fmt"
	"io"

	"github.com/readbench/readbench/readlog"
	"github.com/readbench/readbench/stats"
)

// ReadLog is where a run writes every read as it ends (run --reads FILE:
// package readlog, JSON Lines or CSV by the name), replacing an existing
// file only when Force. The zero value writes nothing.
type ReadLog struct {
	Path  string
	Force bool
}

// readLog is a ReadLog open for one run (nil: none).
type readLog struct{ w *readlog.Writer }

// create opens the file before the run connects: one that exists without
// Force, or cannot be created, is an *InputError.
func (l ReadLog) create() (*readLog, error) {
	if l.Path == "" {
		return nil, nil
	}
	w, err := readlog.Create(l.Path, l.Force)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return &readLog{w}, nil
}

// Chain hands the run's phases to the file besides prev's observers.
func (l *readLog) Chain(prev func(stats.Ready) (stats.Observer, stats.Observer)) func(stats.Ready) (stats.Observer, stats.Observer) {
	if l == nil {
		return prev
	}
	return tee(prev, l.w.Observe)
}

// close ends the file, saying on stderr when it could not be written
// whole (the run and its result stand: the file is a copy).
func (l *readLog) close(stderr io.Writer) {
	if l == nil {
		return
	}
	if err := l.w.Close(); err != nil {
		fmt.Fprintf(stderr, "readbench: %v\n", err)
	}
}
