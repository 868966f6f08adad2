package workload

import "time"

// Expected is how long the schedule of l lasts: warmup and length, or,
// for a run ended by a turn count, the count at the asked rate (0: not
// known ahead, the closed model's). It is what decides whether a run is
// long enough for a live view.
func (l Load) Expected() time.Duration {
	if n := l.Length(); n > 0 {
		return l.Warmup + n
	}
	if l.Turns > 0 && l.Model != ModelClosed && l.Rate.PerSecond > 0 {
		return l.Warmup + time.Duration(float64(l.Turns)/l.Rate.PerSecond*float64(time.Second))
	}
	return 0
}
