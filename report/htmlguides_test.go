package report

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
)

// guidedResult is the clean run held to a broken turn bound, a held read
// bound, a class bound and an error bound, with a timeline of 20 ms reads
// in which errors rise.
func guidedResult(t *testing.T) *results.Result {
	r := fixture(t, false)
	r.Thresholds = []results.Verdict{
		{Bound: "turn.p99<800ms", Metric: "turn.p99", Unit: "ms", Measured: 5001, Limit: 800},
		{Bound: "read.p99<1000ms", Metric: "read.p99", Unit: "ms", Measured: 100, Limit: 1000, Pass: true},
		{Bound: "class.markdown.read.p99<1000ms", Metric: "class.markdown.read.p99", Unit: "ms", Measured: 90, Limit: 1000, Pass: true},
		{Bound: "errors<1%", Metric: "errors", Unit: "%", Measured: 3, Limit: 1},
	}
	r.Workload.Load.Warmup, r.Totals.MeasuredS = time.Second, 4
	for i := range 5 {
		r.Timeline = append(r.Timeline, results.Second{T: i, Warmup: i == 0, Asked: 10, Achieved: 10, Reads: 40, Errors: int64(10 * i),
			InFlight: int64(i), P50Ms: 10, P99Ms: 20, LagMaxMs: float64(i)})
	}
	return r
}

var (
	guideRE = regexp.MustCompile(`<line class="guide ([a-z]+)" data-v="([^"]+)" x1="[^"]+" y1="([0-9.]+)"`)
	gridRE  = regexp.MustCompile(`<line class="grid" x1="[^"]+" y1="([0-9.]+)" x2="[^"]+" y2="[^"]+"/><text [^>]*text-anchor="end">([^<]+)</text>`)
	atRE    = regexp.MustCompile(`<path class="guide-at threshold" d="M([0-9.]+) `)
)

// guidesOf are the guides of a chart: kind and value → the y drawn at.
func guidesOf(svg string) map[string]string {
	out := map[string]string{}
	for _, m := range guideRE.FindAllStringSubmatch(svg, -1) {
		out[m[1]+" "+m[2]] = m[3]
	}
	return out
}

// TestSpectrumDrawsThresholdsAndDeadline: the spectrum of reads and turns
// draws the latency thresholds on its blocks at their limits (on the
// scale: a 1000 ms bound on the 1000 gridline), each marked at its
// percentile, broken ones labelled ✗; the deadline too; a bound on errors
// or on a class is not on it, the class bound is on the per-class one.
func TestSpectrumDrawsThresholdsAndDeadline(t *testing.T) {
	charts, err := resultSpectra(guidedResult(t), "")
	if err != nil {
		t.Fatal(err)
	}
	main, per := string(charts[0]), string(charts[1])
	gs := guidesOf(main)
	if len(gs) != 3 || gs["threshold 800"] == "" || gs["threshold 1000"] == "" || gs["deadline 800"] == "" {
		t.Fatalf("guides %v, want turn.p99 at 800, read.p99 at 1000 and the deadline at 800", gs)
	}
	grid := map[string]string{}
	for _, m := range gridRE.FindAllStringSubmatch(main, -1) {
		grid[m[2]] = m[1]
	}
	if gs["threshold 1000"] != grid["1000"] {
		t.Errorf("the 1000 ms bound is drawn at y %s, the 1000 gridline at %s", gs["threshold 1000"], grid["1000"])
	}
	for _, want := range []string{">✗ turn.p99&lt;800ms</text>", ">✓ read.p99&lt;1000ms</text>", ">turn deadline 800ms</text>"} {
		if !strings.Contains(main, want) {
			t.Errorf("no label %s", want)
		}
	}
	// p99 sits at x = log10(100) = 2 of the axis: the 99% tick.
	tick := regexp.MustCompile(`<line class="grid" x1="([0-9.]+)"[^>]*/><text [^>]*text-anchor="middle">99%</text>`).FindStringSubmatch(main)
	for _, m := range atRE.FindAllStringSubmatch(main, -1) {
		if tick == nil || m[1] != tick[1] {
			t.Errorf("a p99 bound is marked at x %s, the 99%% tick is at %v", m[1], tick)
		}
	}
	if strings.Contains(main, "errors&lt;1%") || strings.Contains(main, "class.markdown") {
		t.Error("a bound on errors or a class is drawn on the reads' spectrum")
	}
	if g := guidesOf(per); len(g) != 2 || !strings.Contains(per, "class.markdown.read.p99&lt;1000ms") {
		t.Errorf("per-class spectrum guides %v", g)
	}
}

// TestTimelineShowsReadsInFlightAndLag: the timeline has ok and error
// reads per second as two series (ok = reads - errors), the turns in
// flight and the worst lag; the latency chart names a deadline far above
// its scale instead of flattening the reads under it.
func TestTimelineShowsReadsInFlightAndLag(t *testing.T) {
	r := guidedResult(t)
	sc := sharedTimelineScale(r)
	reads := string(readsChart(r, "reads", "t", sc))
	ys := map[string][]float64{}
	for _, m := range seriesRE.FindAllStringSubmatch(reads, -1) {
		for _, p := range pointRE.FindAllStringSubmatch(m[2], -1) {
			y, _ := strconv.ParseFloat(p[2], 64)
			ys[m[1]] = append(ys[m[1]], y)
		}
	}
	ok, bad := ys["ok reads/s"], ys["error reads/s"]
	if len(ok) != 5 || len(bad) != 5 {
		t.Fatalf("ok %v, errors %v: want the 5 seconds each", ok, bad)
	}
	if bad[0] != plotH-padB || !(ok[0] < bad[0]) || !(bad[4] < ok[4]) || ok[2] != bad[2] {
		t.Errorf("ok %v, errors %v: want no errors then errors overtaking ok reads, equal in second 2 (20 of 40)", ok, bad)
	}
	var b strings.Builder
	if err := WriteHTML(&b, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, kind := range []string{"timeline-reads", "timeline-in-flight", "timeline-lag"} {
		if !strings.Contains(html, `data-chart="`+kind+`"`) {
			t.Errorf("no %s chart on the page", kind)
		}
	}
	lat := string(timelineLatencyChart(r, "lat", "t", sc))
	if g := guidesOf(lat); len(g) != 0 || !strings.Contains(lat, "↑ turn deadline 800ms (above the scale)") {
		t.Errorf("latency timeline guides %v: the 800 ms deadline over 20 ms reads should be named above the scale", g)
	}
	r.Workload.Turn.Deadline = 50 * time.Millisecond
	if g := guidesOf(string(timelineLatencyChart(r, "lat", "t", sc))); g["deadline 50"] == "" {
		t.Errorf("a 50 ms deadline over 20 ms reads is not drawn: %v", g)
	}
}
