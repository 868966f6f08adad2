package live

import (
	"fmt"
	"io"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// Line is the one-line progress display, the view of a run on a terminal
// without the full screen (--no-live, a small terminal, ab's runs): each
// progress redraws the line on w. first, when given, runs before the
// first line is drawn (the connecting line gives way to it). The caller
// shows it only on a terminal: progress is for people, never for logs.
func Line(w io.Writer, warmup time.Duration, first func()) func(stats.Progress) {
	return func(p stats.Progress) {
		if first != nil {
			first()
			first = nil
		}
		fmt.Fprint(w, "\r\033[K"+ProgressLine(p, warmup))
	}
}

// ProgressLine is the progress line: the warmup counted as such ("warmup
// 1s/2s"), then the measured time against the measured length ("3s/5s",
// the warmup not in it, as --duration says; "draining 5s/5s" while the
// turns in flight end after the schedule), and the figures in the one
// number format of the reports (internal/numfmt), so a p99 reads "41.7ms"
// here as in the report that follows.
func ProgressLine(p stats.Progress, warmup time.Duration) string {
	clock := seconds(p.Elapsed-warmup) + "/" + seconds(p.Total-warmup)
	switch {
	case p.Warmup:
		clock = "warmup " + seconds(p.Elapsed) + "/" + seconds(warmup)
	case p.Draining: // the schedule is over: the clock stops at its end
		clock = "draining " + seconds(max(p.Total-warmup, 0)) + "/" + seconds(p.Total-warmup)
	}
	p99 := numfmt.None
	if p.P99 > 0 {
		p99 = numfmt.Ms(float64(p.P99) / float64(time.Millisecond))
	}
	return fmt.Sprintf("%s  turns %s (%s/s)  reads %s  in flight %s  p99 %s  errors %s",
		clock, numfmt.Count(p.Turns), numfmt.Sig3(p.Achieved()), numfmt.Count(p.Reads), numfmt.Count(p.InFlight),
		p99, numfmt.Count(p.Errors))
}

// seconds formats a progress duration to whole seconds.
func seconds(d time.Duration) string { return d.Truncate(time.Second).String() }
