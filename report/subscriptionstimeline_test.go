package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestSubscriptionsTimelineChart: the page's subscriptions section draws
// the loop per second when the result keeps it (its five series named in
// the legend, in place of the note that says it is not drawn), says why
// not when the result predates it, and a run without listeners has
// neither.
func TestSubscriptionsTimelineChart(t *testing.T) {
	withTimeline := func() *results.Result {
		r := listened(t, 2, 0, true)
		r.Subscriptions.Timeline = []stats.ListenSecond{
			{Second: 0}, {Second: 1, Changes: 10, Notifications: 118, Missed: 2, Rereads: 118},
			{Second: 2, Changes: 10, Notifications: 120, LostInGaps: 3, Rereads: 120}, {Second: 3, Notifications: 4, Rereads: 4},
		}
		return r
	}
	for _, c := range []struct {
		name         string
		r            *results.Result
		chart, note  bool
		section      bool
		wantInLegend []string
	}{
		{name: "kept per second", r: withTimeline(), chart: true, section: true,
			wantInLegend: []string{"changes/s", "notifications/s", "re-reads/s", "missed/s", "lost in gaps/s"}},
		{name: "written before", r: listened(t, 0, 0, true), note: true, section: true},
		{name: "no listeners", r: fixture(t, false)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteHTML(&b, []*results.Result{c.r}); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			if got := strings.Contains(page, `data-chart="subscriptions-timeline"`); got != c.chart {
				t.Errorf("chart drawn %v, want %v", got, c.chart)
			}
			if got := strings.Contains(page, "no timeline of them is drawn"); got != c.note {
				t.Errorf("note that no timeline is drawn %v, want %v", got, c.note)
			}
			if got := strings.Contains(page, `data-section="subscriptions"`); got != c.section {
				t.Errorf("subscriptions section %v, want %v", got, c.section)
			}
			if !c.chart {
				return
			}
			fig := page[strings.Index(page, `data-chart="subscriptions-timeline"`):]
			fig = fig[:strings.Index(fig, "</figure>")]
			for _, w := range c.wantInLegend {
				if !strings.Contains(fig, w) {
					t.Errorf("the chart does not name %q", w)
				}
			}
			if !strings.Contains(fig, "warmup") {
				t.Errorf("the chart does not shade the warmup of the run's seconds")
			}
		})
	}
}
