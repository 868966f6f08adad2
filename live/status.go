package live

import (
	"fmt"
	"io"
	"time"

	"github.com/readbench/readbench/stats"
)

// DefaultStatusEvery is how often Status writes its line by default: a
// CI log of a ten-minute run gets sixty lines, enough to see a run is
// alive and how it goes, few enough to read (k6 prints its status line
// on about this pace when its output is not a terminal).
const DefaultStatusEvery = 10 * time.Second

// Status is the progress of a run for a stderr that is not a terminal (a
// CI log, a pipe, a file): every `every` of the run's time it writes one
// whole line, "readbench: " and the progress line's figures
// (ProgressLine), ended by a newline and holding no control character, so
// a log shows a long run going on instead of silence until its end. Line
// redraws one line in place with "\r" and an erase sequence, which a log
// keeps as garbage; Status only appends. every <= 0 writes nothing.
//
// The driver sends a Progress about once a second; a line is written for
// the first Progress at or past each multiple of every (the warmup
// included, as the clock of a run a person waits for), and once as the
// drain begins when the run lasted longer than every, so the log says
// when the schedule ended.
func Status(w io.Writer, warmup, every time.Duration) func(stats.Progress) {
	next := every
	drained := false
	return func(p stats.Progress) {
		if every <= 0 {
			return
		}
		switch {
		case p.Draining && !drained && p.Elapsed >= every:
			drained = true
		case p.Elapsed >= next && !p.Draining:
		default:
			return
		}
		for next <= p.Elapsed {
			next += every
		}
		fmt.Fprintln(w, "readbench: "+ProgressLine(p, warmup))
	}
}
