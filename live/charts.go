package live

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// The rows the figures leave are the charts': the reads of each second
// (ok and errors, stacked) and the histogram of the phase's read
// latencies, side by side on a wide terminal, the histogram alone on a
// narrow one; none when too few rows are left.

// Chart sizes: the fewest rows a chart is drawn in, the width from
// which the two stand side by side, and the gap between them.
const (
	minChartRows = 4
	sideBySide   = 100
	chartGap     = 3
)

// charts draws the charts in rows lines (a blank line first), or nothing
// when fewer than minChartRows+2 are left.
func (m model) charts(rows int) string {
	rows-- // the blank line above them
	if rows < minChartRows+1 {
		return ""
	}
	width := m.width - 2
	var lines []string
	if width >= sideBySide {
		left := (width - chartGap) / 2
		a, b := m.perSecondChart(left, rows), m.histogram(width-chartGap-left, rows)
		for i := range rows {
			lines = append(lines, padRight(at(a, i), left)+strings.Repeat(" ", chartGap)+at(b, i))
		}
	} else {
		lines = m.histogram(width, rows)
	}
	var b strings.Builder
	b.WriteString("\n")
	for _, l := range lines {
		b.WriteString(strings.TrimRight("  "+l, " ") + "\n")
	}
	return b.String()
}

// at is lines[i], or nothing past the end.
func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// padRight pads s (which may hold styles) to width cells.
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-cells(s), 0))
}

// Cells of the per-second chart: ok reads, errors, and the warmup's.
const (
	okCell   = "█"
	errCell  = "▒"
	warmBars = "░"
)

// perSecondChart is the reads of the latest seconds that fit in width,
// one column a second, errors stacked over the ok reads (an error always
// gets a cell), on a scale from zero to a ceiling that only grows (the
// top row's label); the warmup's seconds are drawn ░.
func (m model) perSecondChart(width, rows int) []string {
	const axis = 8 // "  50/s ┤"
	head := m.st.dim.Render("reads/s · " + okCell + " ok · " + errCell + " errors · " + warmBars + " warmup")
	cols := width - axis
	if cols < 1 || m.rateTop == 0 {
		return []string{head, m.st.dim.Render("no whole second yet")}
	}
	secs := m.seconds[max(len(m.seconds)-cols, 0):]
	h := rows - 1
	lines := []string{head}
	for r := range h { // row 0 is the top
		label := ""
		switch r {
		case 0:
			label = numfmt.Sig3(m.rateTop) + "/s"
		case h - 1:
			label = "0"
		}
		lines = append(lines, m.st.dim.Render(fmt.Sprintf("%*s ┤", axis-2, label))+m.chartRow(secs, h-r, h))
	}
	return lines
}

// chartRow is the row up cells from the bottom (1..h) of the columns of
// secs, each run of one kind of cell styled once (a style per cell would
// cost a frame milliseconds).
func (m model) chartRow(secs []secReads, up, h int) string {
	var b, run strings.Builder
	kind := -1
	flush := func() {
		switch {
		case run.Len() == 0:
		case kind == 0: // blanks need no style
			b.WriteString(run.String())
		default:
			b.WriteString([]lipgloss.Style{m.st.dim, m.st.bad, m.st.dim, m.st.good}[kind].Render(run.String()))
		}
		run.Reset()
	}
	for _, s := range secs {
		total := cellsOf(float64(s.ok+s.errs), m.rateTop, h)
		errs := min(cellsOf(float64(s.errs), m.rateTop, h), total)
		k, cell := 0, " "
		switch {
		case up > total:
		case up > total-errs:
			k, cell = 1, errCell
		case s.warm:
			k, cell = 2, warmBars
		default:
			k, cell = 3, okCell
		}
		if k != kind {
			flush()
			kind = k
		}
		run.WriteString(cell)
	}
	flush()
	return b.String()
}

// cellsOf is how many of h cells v fills on a scale to top: at least one
// for any v above zero.
func cellsOf(v, top float64, h int) int {
	if v <= 0 || top <= 0 {
		return 0
	}
	return min(max(int(v/top*float64(h)+0.5), 1), h)
}

// histogram is the phase's read latencies in the live bins from the
// first with a read to the last, adjacent bins merged (pairs, then
// fours...) until they fit rows-1 lines; each bar on a scale to the
// fullest bin, with its count and share.
func (m model) histogram(width, rows int) []string {
	bins, total := m.tick.Phase.ReadBins, int64(0)
	for _, n := range bins {
		total += n
	}
	whose := "measured"
	if m.tick.Warmup {
		whose = "the warmup's"
	}
	head := m.st.dim.Render(fmt.Sprintf("read latency · %s reads so far · %s", whose, numfmt.Count(total)))
	if total == 0 {
		return []string{head, m.st.dim.Render("no reads yet")}
	}
	groups := binGroups(bins, rows-1)
	var most int64
	for _, g := range groups {
		most = max(most, g.n)
	}
	const labelCells, countCells = 15, 16 // "10.0ms–12.0ms  " and "  1,234  12.3%"
	barCells := max(width-labelCells-countCells, 4)
	lines := []string{head}
	for _, g := range groups {
		n := int(float64(g.n)/float64(most)*float64(barCells) + 0.5)
		if g.n > 0 {
			n = max(n, 1)
		}
		label := fmt.Sprintf("%*s  ", labelCells-2, g.label())
		lines = append(lines, m.st.dim.Render(label)+padRight(strings.Repeat("■", n), barCells)+
			fmt.Sprintf("%8s %6s", numfmt.Count(g.n), numfmt.Percent(g.n, total)))
	}
	return lines
}

// binGroup is one histogram line: the reads from from up to to.
type binGroup struct {
	from, to time.Duration
	n        int64
}

// binGroups merges the non-empty range of bins into at most lines
// groups of 1, 2, 4... adjacent bins, aligned on the group size so a
// group's edges are bins' edges the reader meets again.
func binGroups(bins [stats.LiveBins]int64, lines int) []binGroup {
	first, last := -1, -1
	for i, n := range bins {
		if n > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || lines < 1 {
		return nil
	}
	size := 1
	for (last/size - first/size + 1) > lines {
		size *= 2
	}
	var out []binGroup
	for g := first / size; g <= last/size; g++ {
		lo, hi := g*size, min((g+1)*size, stats.LiveBins)-1
		grp := binGroup{from: lower(lo), to: stats.LiveBinUpper(hi)}
		for i := lo; i <= hi; i++ {
			grp.n += bins[i]
		}
		out = append(out, grp)
	}
	return out
}

// label is the group's range: "10.0ms–12.0ms", or "≥ 100s" for the last.
func (g binGroup) label() string {
	if g.to == math.MaxInt64 {
		return "≥ " + numfmt.Ms(ms(g.from))
	}
	return numfmt.Ms(ms(g.from)) + "–" + numfmt.Ms(ms(g.to))
}

// lower is bin i's lower edge.
func lower(i int) time.Duration {
	if i == 0 {
		return 0
	}
	return stats.LiveBinUpper(i - 1)
}

// cells is the width of s on a terminal, its styles not counted.
func cells(s string) int { return lipgloss.Width(s) }
