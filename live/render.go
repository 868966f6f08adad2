package live

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// styles are the few the view uses, made with the renderer of the
// terminal it draws on (its color profile, not standard output's).
type styles struct {
	title, label, dim, bad, good lipgloss.Style
}

// newStyles returns the view's styles for r. No style asks the terminal
// anything (no adaptive colours: a background query would need input).
func newStyles(r *lipgloss.Renderer) styles {
	return styles{
		title: r.NewStyle().Bold(true),
		label: r.NewStyle().Faint(true),
		dim:   r.NewStyle().Faint(true),
		bad:   r.NewStyle().Foreground(lipgloss.Color("1")),
		good:  r.NewStyle().Foreground(lipgloss.Color("2")),
	}
}

// labelWidth is the width of the left column of labels.
const labelWidth = 11

// View draws the whole screen.
func (m model) View() string {
	var b strings.Builder
	b.WriteString(m.st.title.Render(m.title) + "\n\n")
	for _, s := range m.steps {
		m.row(&b, s.stage, m.stepText(s))
	}
	m.row(&b, "load", m.loadText())
	if m.ticks > 0 {
		b.WriteString("\n")
		t := m.tick
		m.row(&b, "rate", m.rateText())
		m.row(&b, "read", percentiles(t.Phase.Read))
		m.row(&b, "turn", percentiles(t.Phase.Turn))
		m.row(&b, "p99 each s", m.sparkText())
		m.row(&b, "lag", percentiles(t.Phase.Lag))
		m.row(&b, "bytes", m.bytesText())
		m.row(&b, "outcomes", m.outcomesText())
	}
	if len(m.notes) > 0 {
		b.WriteString("\n")
		for _, n := range m.notes {
			b.WriteString("  " + m.st.dim.Render(clip(n, m.width-2)) + "\n")
		}
	}
	return b.String()
}

// row writes one labelled line, clipped to the screen's width.
func (m model) row(b *strings.Builder, label, text string) {
	pad := fmt.Sprintf("  %-*s", labelWidth, label)
	b.WriteString(m.st.label.Render(pad) + lipgloss.NewStyle().MaxWidth(max(m.width-len(pad), 1)).Render(text) + "\n")
}

// stepText is a setup step: what it waits for and for how long, or how
// long it took.
func (m model) stepText(s step) string {
	if !s.ended.IsZero() {
		return m.st.good.Render("done") + " in " + numfmt.Ms(ms(s.ended.Sub(s.began))) + m.st.dim.Render(" · "+s.text)
	}
	if d := m.now.Sub(s.began); d >= time.Second { // first: a long text is clipped at its end
		return whole(d) + " · " + s.text
	}
	return s.text
}

// loadText is the load's line: waiting, or elapsed of total with what is
// left and a bar.
func (m model) loadText() string {
	switch {
	case !m.ready:
		return m.st.dim.Render("waiting for the sessions")
	case m.ticks == 0:
		return "starting"
	}
	t := m.tick
	phase := ""
	if t.Warmup {
		phase = " (warmup)"
	}
	if t.Total <= 0 {
		return whole(t.Elapsed) + phase + m.st.dim.Render(" · until the turn count is reached")
	}
	left := max(t.Total-t.Elapsed, 0)
	done := min(float64(t.Elapsed)/float64(t.Total), 1)
	return fmt.Sprintf("%s of %s%s · %s left  %s %d%%", whole(t.Elapsed), whole(t.Total), phase, whole(left),
		bar(done, min(max(m.width-60, 10), 30)), int(done*100))
}

// rateText is the asked and achieved turn rate of the last second, reads
// per second and turns in flight.
func (m model) rateText() string {
	t := m.tick
	asked := "-"
	if t.Asked > 0 {
		asked = numfmt.Sig3(t.Asked) + "/s"
	}
	achieved, reads := "-", "-"
	if v, ok := m.perSecond(func(t Tick) int64 { return t.Turns }, false); ok {
		achieved = numfmt.Sig3(v) + "/s"
	}
	if v, ok := m.perSecond(func(t Tick) int64 { return t.Reads }, false); ok {
		reads = numfmt.Sig3(v) + "/s"
	}
	return fmt.Sprintf("turns asked %s · achieved %s · reads %s · in flight %s", asked, achieved, reads, numfmt.Count(t.InFlight))
}

// sparkText is the sparkline of each second's read p99, with its range.
func (m model) sparkText() string {
	lo, hi := time.Duration(0), time.Duration(0)
	for _, v := range m.p99s {
		if v > 0 && (lo == 0 || v < lo) {
			lo = v
		}
		hi = max(hi, v)
	}
	if hi == 0 {
		return m.st.dim.Render("no reads yet")
	}
	w := min(max(m.width-labelWidth-40, 10), 120)
	last := m.p99s[len(m.p99s)-1]
	return sparkline(m.p99s, w) + m.st.dim.Render(fmt.Sprintf("  %s–%s · last %s", numfmt.Ms(ms(lo)), numfmt.Ms(ms(hi)), numfmt.Ms(ms(last))))
}

// bytesText is the phase's wire and disk bytes and their rates.
func (m model) bytesText() string {
	t := m.tick.Phase
	one := func(n int64, count func(Tick) int64) string {
		s := numfmt.Bytes(n)
		if v, ok := m.perSecond(count, true); ok {
			s += " (" + numfmt.Bytes(int64(v)) + "/s)"
		}
		return s
	}
	return "wire " + one(t.WireBytes, func(t Tick) int64 { return t.Phase.WireBytes }) +
		" · disk " + one(t.DiskBytes, func(t Tick) int64 { return t.Phase.DiskBytes })
}

// outcomesText is the phase's reads by outcome, errors marked.
func (m model) outcomesText() string {
	c := m.tick.Phase.Outcomes
	total := c.Total()
	parts := []string{numfmt.Count(total) + " reads"}
	for i, n := range c {
		if n == 0 {
			continue
		}
		o := stats.Outcome(i)
		s := fmt.Sprintf("%s %s (%s)", o, numfmt.Count(n), numfmt.Percent(n, total))
		if o.IsError() {
			s = m.st.bad.Render(s)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

// percentiles writes p50, p90 and p99.
func percentiles(p stats.Percentiles) string {
	if p == (stats.Percentiles{}) {
		return "-"
	}
	return fmt.Sprintf("p50 %s · p90 %s · p99 %s", numfmt.Ms(ms(p.P50)), numfmt.Ms(ms(p.P90)), numfmt.Ms(ms(p.P99)))
}

// bar draws a share done (0..1) in width cells.
func bar(done float64, width int) string {
	n := min(int(done*float64(width)+0.5), width)
	return strings.Repeat("█", n) + strings.Repeat("░", width-n)
}

// clip cuts s to width runes.
func clip(s string, width int) string {
	r := []rune(s)
	if width < 1 || len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// whole writes a duration in whole seconds, as the progress line does.
func whole(d time.Duration) string { return d.Truncate(time.Second).String() }
