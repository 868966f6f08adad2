package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The charts of one result on the HTML pages: the timelines, the
// per-class bars, the inflation split and the turn sizes.

// timelineScale is what two timelines shown side by side share: the
// seconds on the x axis and the top of each y axis, so the same height
// means the same rate or latency on both and a worse run cannot look
// alike by being drawn at another scale. The zero value is a chart's own
// scale.
type timelineScale struct {
	lastT                                           int
	rateTop, latency, readsTop, inFlightTop, lagTop float64
}

// sharedTimelineScale is the scale covering the timelines of rs.
func sharedTimelineScale(rs ...*results.Result) timelineScale {
	var sc timelineScale
	for _, r := range rs {
		for _, s := range r.Timeline {
			sc.lastT = max(sc.lastT, s.T)
			sc.rateTop = math.Max(sc.rateTop, math.Max(s.Asked, s.Achieved))
			sc.latency = math.Max(sc.latency, math.Max(s.P50Ms, s.P99Ms))
			sc.readsTop = math.Max(sc.readsTop, float64(max(s.Reads-s.Errors, s.Errors)))
			sc.inFlightTop = math.Max(sc.inFlightTop, float64(s.InFlight))
			sc.lagTop = math.Max(sc.lagTop, s.LagMaxMs)
		}
	}
	return sc
}

// classChart draws each class's read p50 and p99 side by side; on the
// compare page, the two runs' bars stand next to each other per class.
func classChart(id, title string, cats []string, ss []series) template.HTML {
	if len(cats) == 0 {
		return figure(id, "class-latency", title, `<p class="empty">No classes in this result.</p>`)
	}
	return barChart(id, "class-latency", title, "class", "latency (ms)", cats, ss, false, numfmt.Sig3)
}

// classBars are the p50 and p99 series of classChart for r, over the
// classes cats (0 where r has no such class); prefix names the run.
func classBars(r *results.Result, cats []string, prefix string) []series {
	p50, p99 := series{name: prefix + "p50"}, series{name: prefix + "p99"}
	for i, cat := range cats {
		var l stats.Latency
		for _, c := range r.Classes {
			if c.Class == cat {
				l = c.Latency
			}
		}
		p50.pts = append(p50.pts, [2]float64{float64(i), l.P50Ms})
		p99.pts = append(p99.pts, [2]float64{float64(i), l.P99Ms})
	}
	return []series{p50, p99}
}

// classNames are the classes of the results, in the order they first
// appear.
func classNames(rs ...*results.Result) []string {
	var cats []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, c := range r.Classes {
			if !seen[c.Class] {
				seen[c.Class] = true
				cats = append(cats, c.Class)
			}
		}
	}
	return cats
}

// inflationChart splits each class's wire bytes into the decoded bytes
// (disk), what base64 adds to the blobs and the JSON envelope around them,
// as shares of the wire, so a class that ships 33% more than it stores
// stands out. A blob's decoded size is 3/4 of its base64 length (padding
// aside); what base64 adds is the rest.
func inflationChart(r *results.Result, id string) template.HTML {
	const title = "Wire bytes per class: disk, base64 and envelope (inflation = wire / disk)"
	if r.Totals.WireBytes == 0 {
		return figure(id, "inflation", title, `<p class="empty">No bytes read.</p>`)
	}
	cats := []string{}
	disk, enc, env := series{name: "disk"}, series{name: "base64"}, series{name: "JSON envelope"}
	for i, c := range r.Classes {
		cats = append(cats, fmt.Sprintf("%s (%s)", c.Class, numfmt.Opt(c.Inflation, numfmt.Ratio)))
		wire := float64(max(c.WireBytes, 1))
		blob := math.Min(float64(c.DiskBytes), float64(c.Base64Bytes)*3/4)
		e := float64(c.Base64Bytes) - blob
		rest := math.Max(float64(c.WireBytes)-float64(c.DiskBytes)-e, 0)
		disk.pts = append(disk.pts, [2]float64{float64(i), 100 * float64(c.DiskBytes) / wire})
		enc.pts = append(enc.pts, [2]float64{float64(i), 100 * e / wire})
		env.pts = append(env.pts, [2]float64{float64(i), 100 * rest / wire})
	}
	return barChart(id, "inflation", title, "class (inflation)", "share of wire bytes (%)", cats, []series{disk, enc, env}, true,
		func(v float64) string { return numfmt.Sig3(v) + "%" })
}

// turnSizeChart draws the turn p50 and p99 for each number of reads per
// turn: the slowest of ten parallel reads is not the slowest of one.
func turnSizeChart(id, title string, cats []string, ss []series) template.HTML {
	return barChart(id, "turn-sizes", title, "reads per turn", "turn latency (ms)", cats, ss, false, numfmt.Sig3)
}

// turnSizeBars are the p50 and p99 series of turnSizeChart for r over the
// sizes cats.
func turnSizeBars(r *results.Result, cats []string, prefix string) []series {
	p50, p99 := series{name: prefix + "p50"}, series{name: prefix + "p99"}
	for i, cat := range cats {
		var l stats.Latency
		for _, ts := range r.TurnSizes {
			if fmt.Sprint(ts.Attachments) == cat {
				l = ts.Latency
			}
		}
		p50.pts = append(p50.pts, [2]float64{float64(i), l.P50Ms})
		p99.pts = append(p99.pts, [2]float64{float64(i), l.P99Ms})
	}
	return []series{p50, p99}
}

// turnSizeNames are the turn sizes of the results, smallest first.
func turnSizeNames(rs ...*results.Result) []string {
	var sizes []int
	seen := map[int]bool{}
	for _, r := range rs {
		for _, ts := range r.TurnSizes {
			if !seen[ts.Attachments] {
				seen[ts.Attachments] = true
				sizes = append(sizes, ts.Attachments)
			}
		}
	}
	slices.Sort(sizes)
	cats := make([]string, len(sizes))
	for i, s := range sizes {
		cats[i] = fmt.Sprint(s)
	}
	return cats
}
