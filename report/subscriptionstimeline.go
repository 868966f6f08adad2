package report

import (
	"html/template"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// subscriptionsTimelineChart draws the freshness loop per second
// (results.Subscriptions.Timeline) on the reads' seconds, as the Timeline
// section's charts are drawn (timelineChart: warmup shaded, partial
// seconds apart): the changes made, the notifications received, the
// re-reads sent, and the changes missed and lost in gaps, each in the
// second the change was made. Missed and lost are two series, never one:
// a listener that was told nothing while its stream was up is not one
// whose stream was down. ok is false when the result keeps no seconds of
// the loop (written before it did).
func subscriptionsTimelineChart(r *results.Result, id string) (template.HTML, bool) {
	s := r.Subscriptions
	if s == nil || len(s.Timeline) == 0 {
		return "", false
	}
	bySecond := make(map[int]stats.ListenSecond, len(s.Timeline))
	n := len(r.Timeline)
	for _, x := range s.Timeline {
		bySecond[x.Second] = x
		n = max(n, x.Second+1)
	}
	// The loop's seconds as a timeline of the run's seconds, so that
	// timelineChart shades the warmup and the partial seconds as it does
	// for the reads, and the loop's last notifications (after the run's
	// schedule) still have their second.
	on := *r
	on.Timeline = make([]results.Second, n)
	for t := range on.Timeline {
		on.Timeline[t].T = t
		if t < len(r.Timeline) {
			on.Timeline[t].Warmup = r.Timeline[t].Warmup
		}
	}
	ss := []series{
		{name: "changes/s", colour: color(0), width: 2.5},
		{name: "notifications/s", colour: color(2), width: 4}, // wide, under the re-reads: one re-read per notification is the usual case
		{name: "re-reads/s", colour: color(3), width: 2, dashed: true},
		{name: "missed/s", colour: color(1), width: 2.5},
		{name: "lost in gaps/s", colour: color(4), width: 2.5, dashed: true},
	}
	val := func(sec results.Second) []float64 {
		x := bySecond[sec.T]
		return []float64{float64(x.Changes), float64(x.Notifications), float64(x.Rereads), float64(x.Missed), float64(x.LostInGaps)}
	}
	return timelineChart(&on, id, "subscriptions-timeline",
		"Changes, notifications and re-reads per second; missed and lost changes in the second they were made",
		"per second", ss, val, n-1, 0), true
}
