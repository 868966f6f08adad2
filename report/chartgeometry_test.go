package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

func TestPartialSecond(t *testing.T) {
	for _, c := range []struct {
		name string
		t    int
		end  float64
		want bool
	}{
		{"a second wholly inside the run", 4, 6, false},
		{"the last whole second", 5, 6, false},
		{"a run that ended a hair late does not mark its last second", 5, 6.003, false},
		{"the run ended inside the second", 6, 6.4, true},
		{"a second of draining after the end", 6, 6, true},
		{"an interrupted run's last second", 3, 3.5, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := partialSecond(c.t, c.end); got != c.want {
				t.Errorf("partialSecond(%d, %g) = %t, want %t", c.t, c.end, got, c.want)
			}
		})
	}
}

// timelineRun is a run of 1s warmup and measured seconds, its timeline
// one second longer than the run (the drain), that second's rate a third.
func timelineRun(measured float64, warmup time.Duration) *results.Result {
	r := &results.Result{}
	r.Workload.Load.Warmup = warmup
	r.Totals.MeasuredS = measured
	for i := range 7 {
		r.Timeline = append(r.Timeline, results.Second{T: i, Warmup: i == 0, Asked: 10, Achieved: 10, P50Ms: 10, P99Ms: 20})
	}
	r.Timeline[6].Achieved, r.Timeline[6].P50Ms = 3, 400
	return r
}

func TestPartialSecondsOfATimeline(t *testing.T) {
	for _, c := range []struct {
		name     string
		measured float64
		warmup   time.Duration
		want     []int
	}{
		{"the drain second after a 1s warmup and 5s", 5, time.Second, []int{6}},
		{"a run that ended inside second 5", 4.5, time.Second, []int{5, 6}},
		{"the warmup from the timeline when the load does not say", 5, 0, []int{6}},
		{"every second full", 6, time.Second, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := partialSeconds(timelineRun(c.measured, c.warmup)); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("partial seconds %v, want %v", got, c.want)
			}
		})
	}
}

// TestTimelineMarksPartialSecondsAndWarmup: the partial second is not on
// the line (no fake cliff to 0 or spike), it is shaded and labelled, its
// values drawn as hollow dots; the warmup is shaded; asked is dashed.
func TestTimelineMarksPartialSecondsAndWarmup(t *testing.T) {
	r := timelineRun(5, time.Second)
	rate := string(rateChart(r, "rate", "t", timelineScale{}))
	lat := string(timelineLatencyChart(r, "lat", "t", timelineScale{}))
	for name, svg := range map[string]string{"rate": rate, "latency": lat} {
		if !strings.Contains(svg, `class="partial-second" data-t="6"`) || !strings.Contains(svg, ">partial second</text>") {
			t.Errorf("%s: the partial second is not shaded and labelled", name)
		}
		if strings.Count(svg, `class="partial-point"`) != 2 {
			t.Errorf("%s: the partial second's values are not drawn apart", name)
		}
		if !strings.Contains(svg, `class="warmup-band" data-from="0" data-to="1"`) {
			t.Errorf("%s: the warmup is not shaded", name)
		}
		for _, m := range regexp.MustCompile(`<path class="series"[^>]* d="([^"]+)"`).FindAllStringSubmatch(svg, -1) {
			if n := strings.Count(m[1], "L") + 1; n != 6 {
				t.Errorf("%s: a line of %d points, want the 6 full seconds", name, n)
			}
		}
	}
	if !regexp.MustCompile(`data-series="asked" fill="none" stroke="#000000" stroke-width="2.5" stroke-dasharray`).MatchString(rate) {
		t.Error("asked is not drawn dashed and distinct")
	}
	if strings.Index(rate, `data-series="asked"`) < strings.Index(rate, `data-series="achieved"`) {
		t.Error("asked is drawn under achieved")
	}
}

func TestPlaceLabelsNeverOverlap(t *testing.T) {
	obstacles := []box{{300, padT, 3, 300}, {296, padT + 2, 12, 12}, {500, padT + 4, 12, 12}}
	for _, c := range []struct {
		name string
		ls   []label
	}{
		{"two labels at one x", []label{{text: "max sustainable 80.0/s", x: 300}, {text: "first failure 80.0/s", x: 300}}},
		{"labels near the right edge go left", []label{{text: "first failure 160/s", x: plotW - padR - 10}, {text: "generator-bound", x: plotW - padR - 12}}},
		{"a crowd", func() []label {
			var ls []label
			for i := range 12 {
				ls = append(ls, label{text: "generator-bound", x: padL + float64(i)*20})
			}
			return ls
		}()},
		{"a line's label beside its line", []label{{text: "SLO read p99 < 150ms", x: plotW - padR, y: 200}, {text: "other", x: plotW - padR - 40, y: 200}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps := placeLabels(c.ls, obstacles, padL, plotW-padR, padT)
			if len(ps) != len(c.ls) {
				t.Fatalf("%d labels placed of %d", len(ps), len(c.ls))
			}
			for i, p := range ps {
				if p.b.x < padL || p.b.x+p.b.w > plotW-padR || p.b.y < padT {
					t.Errorf("%q leaves the plot: %+v", p.text, p.b)
				}
				for _, o := range obstacles {
					if p.b.overlaps(o) {
						t.Errorf("%q at %+v covers a mark %+v", p.text, p.b, o)
					}
				}
				for _, q := range ps[:i] {
					if p.b.overlaps(q.b) {
						t.Errorf("%q at %+v overlaps %q at %+v", p.text, p.b, q.text, q.b)
					}
				}
				if c.ls[i].y != 0 && (p.b.y > c.ls[i].y+labelH || p.b.y+p.b.h < c.ls[i].y-labelH) {
					t.Errorf("%q at %+v is not beside its line at %g", p.text, p.b, c.ls[i].y)
				}
			}
		})
	}
}

func TestLegendLayoutNeverOverlaps(t *testing.T) {
	for _, n := range []int{1, 4, 12, 40} {
		var names []string
		for i := range n {
			names = append(names, "base class-"+strconv.Itoa(i))
		}
		items, more := layoutLegend(names)
		if len(items)+more != n || len(items) == 0 {
			t.Fatalf("%d names: %d laid out, %d more", n, len(items), more)
		}
		for i, it := range items {
			a := box{it.x, it.y - 13, it.w, 17}
			if a.x+a.w > plotW-padR || a.y < 0 || a.y+a.h > padT {
				t.Errorf("%d names: %q leaves the legend band: %+v", n, it.name, a)
			}
			for _, o := range items[:i] {
				if a.overlaps(box{o.x, o.y - 13, o.w, 17}) {
					t.Errorf("%d names: %q overlaps %q", n, it.name, o.name)
				}
			}
		}
		if more > 0 {
			last := items[len(items)-1]
			if last.x+last.w+legendGap+moreW > plotW-padR {
				t.Errorf("%d names: no room left for \"and %d more\"", n, more)
			}
		}
	}
}
