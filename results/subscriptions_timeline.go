package results

import (
	"math"
	"time"

	"github.com/readbench/readbench/stats"
)

// listenSecondsOf reads a result's loop seconds back, placed on the clock
// that starts at origin (the earliest shard's start) as timelineRun
// places the reads' seconds: shifted by the result's own start, rounded
// to the nearest second.
func listenSecondsOf(r *Result, origin time.Time) []stats.ListenSecond {
	s := r.Subscriptions
	if s == nil || len(s.Timeline) == 0 {
		return nil
	}
	shift := max(int(math.Round(r.Started.Sub(origin).Seconds())), 0)
	out := make([]stats.ListenSecond, 0, shift+len(s.Timeline))
	for i := range shift {
		out = append(out, stats.ListenSecond{Second: i})
	}
	for _, x := range s.Timeline {
		x.Second = len(out)
		out = append(out, x)
	}
	return out
}
