package ab

import (
	"math"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/stats"
)

// sideOf is one side's samples of a round: 100 reads/s for span, each
// latency lat (service 90% of it), every errEvery-th read an error (0:
// none), the reads of class "png" every other one.
func sideOf(t *testing.T, span time.Duration, lat time.Duration, errEvery int) *Samples {
	t.Helper()
	s := &Samples{}
	t0 := time.Unix(100, 0)
	s.Start(t0)
	s.SetClasses([]string{"md", "png"})
	for i := range int(span / (10 * time.Millisecond)) {
		at := time.Duration(i) * 10 * time.Millisecond
		r := stats.ReadSample{Class: i % 2, Outcome: stats.OK, Answered: true, Sent: true, Latency: lat, Service: lat * 9 / 10,
			TTFB: lat / 2, End: t0.Add(at + lat)}
		if errEvery > 0 && i%errEvery == 0 {
			r.Outcome = stats.Timeout
		}
		s.ObserveRead(r)
		s.ObserveTurn(stats.TurnSample{Latency: lat, Intended: t0.Add(at)})
	}
	return s
}

// TestWindows: a round is cut into windows of the schedule, the same
// reads on both sides: at 100 reads/s a p50 takes windows of 250 ms (25
// reads, 10 needed), a p90 of 500 ms (50 needed), a class's p50 of 250 ms
// too (half the reads: 12 or 13 a window); each window's difference is the log-ratio of the
// sides' percentiles, or for a share its difference in points; a p99 (500
// reads a window) fits no window of a 1 s round, and figures no window
// holds (a rate, a maximum) are left to the rounds.
func TestWindows(t *testing.T) {
	base, nw := sideOf(t, time.Second, 5*time.Millisecond, 0), sideOf(t, time.Second, 6500*time.Microsecond, 5)
	want := math.Log(1.3)
	for _, c := range []struct {
		metric string
		n      int
		width  time.Duration
		diff   float64
	}{
		{"read.p50", 4, 250 * time.Millisecond, want},
		{"service.p50", 4, 250 * time.Millisecond, want},
		{"ttfb.p50", 4, 250 * time.Millisecond, want},
		{"turn.p50", 4, 250 * time.Millisecond, want},
		{"read.p90", 2, 500 * time.Millisecond, want},
		{"class.png.read.p50", 4, 250 * time.Millisecond, want},
		{"errors", 4, 250 * time.Millisecond, 20}, // 25 reads a window, every 5th an error: 20 points more
		{"outcome.timeout", 4, 250 * time.Millisecond, 20},
		{"read.p99", 0, 0, 0},
	} {
		m, err := bounds.ParseMetric(c.metric)
		if err != nil {
			t.Fatal(err)
		}
		w, ok := windowedOf(m, base.classes)
		if !ok {
			t.Errorf("%s: no window holds it", c.metric)
			continue
		}
		d, width := w.diffs(base, nw)
		if len(d) != c.n || (c.n > 0 && width != c.width) {
			t.Errorf("%s: %d windows of %s, want %d of %s: %v", c.metric, len(d), width, c.n, c.width, d)
			continue
		}
		for i, v := range d {
			if math.Abs(v-c.diff) > 1e-4*math.Abs(c.diff) {
				t.Errorf("%s window %d: %v, want %v", c.metric, i, v, c.diff)
			}
		}
	}
	for _, metric := range []string{"rate", "read.max", "read.mean", "inflation", "turn_size.1.p50", "class.nosuch.read.p50"} {
		m, err := bounds.ParseMetric(metric)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := windowedOf(m, base.classes); ok {
			t.Errorf("%s: a window holds it", metric)
		}
	}
}

// TestSamplesPlaceReadsBySchedule: a read is placed by its intended
// start (its end less its latency, from the schedule's start), so a late
// answer falls in the window of the turn it belongs to; a read cut at its
// deadline has a read latency and no service time; a read with no end is
// left out.
func TestSamplesPlaceReadsBySchedule(t *testing.T) {
	s := &Samples{}
	t0 := time.Unix(100, 0)
	s.Start(t0)
	s.ObserveRead(stats.ReadSample{Outcome: stats.Timeout, LowerBound: true, Sent: true, Latency: 900 * time.Millisecond, End: t0.Add(1000 * time.Millisecond)})
	s.ObserveRead(stats.ReadSample{Outcome: stats.Dropped})
	if len(s.reads) != 1 || s.reads[0].at != 100*time.Millisecond || s.reads[0].in != inRead || s.reads[0].latency != 900 {
		t.Errorf("reads %+v", s.reads)
	}
}

// countingObserver counts what it is told.
type countingObserver struct{ reads, turns int }

func (c *countingObserver) ObserveRead(stats.ReadSample) { c.reads++ }
func (c *countingObserver) ObserveTurn(stats.TurnSample) { c.turns++ }

// TestSideRunObserve: a side's Options.Observe names the Samples' classes
// as the run does, leaves the warmup to the next observers, and tells the
// measured reads to both the next observers and the Samples; with no next
// (no live metrics) the Samples alone observe.
func TestSideRunObserve(t *testing.T) {
	ready := stats.Ready{Classes: []stats.ClassInfo{{Name: "small"}, {Name: "large"}}}
	t0 := time.Unix(100, 0)
	read := stats.ReadSample{Outcome: stats.OK, Answered: true, Latency: time.Millisecond, End: t0.Add(time.Second)}

	r := SideRun{Samples: &Samples{}}
	r.Samples.Start(t0)
	warm, live := &countingObserver{}, &countingObserver{}
	w, m := r.Observe(func(stats.Ready) (stats.Observer, stats.Observer) { return warm, live })(ready)
	if w != warm {
		t.Errorf("warmup observer %v, want the next one's", w)
	}
	m.ObserveRead(read)
	if live.reads != 1 || len(r.Samples.reads) != 1 {
		t.Errorf("a measured read reached the live metrics %d times, the samples %d", live.reads, len(r.Samples.reads))
	}
	if got := r.Samples.classes; len(got) != 2 || got[0] != "small" || got[1] != "large" {
		t.Errorf("classes %v", got)
	}

	alone := SideRun{Samples: &Samples{}}
	alone.Samples.Start(t0)
	w, m = alone.Observe(nil)(ready)
	if w != nil || m != stats.Observer(alone.Samples) {
		t.Errorf("no next: warmup %v, measured %v; want none and the samples", w, m)
	}
}
