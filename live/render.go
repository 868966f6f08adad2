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

// View draws the whole screen, fitted to the terminal: the figures
// first, the notes, and in the rows left the charts (charts.go); never a
// line wider than the terminal nor more lines than it has, so nothing
// scrolls.
func (m model) View() string {
	var b strings.Builder
	b.WriteString(m.st.title.Render(clip(m.title, m.width)) + "\n\n")
	for _, s := range m.steps {
		m.row(&b, s.stage, m.stepText(s))
	}
	m.row(&b, "load", m.loadText())
	if m.ready {
		m.row(&b, "phases", m.phasesText())
	}
	if m.ticks > 0 {
		b.WriteString("\n")
		t := m.tick
		m.row(&b, "rate", m.rateText())
		m.row(&b, "read", percentiles(t.Phase.Read)+m.warmNote())
		m.row(&b, "turn", percentiles(t.Phase.Turn)+m.warmNote())
		m.row(&b, "p99 each s", m.sparkText())
		m.row(&b, "lag", percentiles(t.Phase.Lag))
		m.row(&b, "bytes", m.bytesText())
		m.row(&b, "outcomes", m.outcomesText())
		if t.Listening != nil {
			m.row(&b, "listeners", m.listenText())
		}
	}
	var notes strings.Builder
	if len(m.notes) > 0 {
		notes.WriteString("\n")
		for _, n := range m.notes {
			notes.WriteString("  " + m.st.dim.Render(clip(n, m.width-2)) + "\n")
		}
	}
	top := b.String()
	used := strings.Count(top, "\n") + strings.Count(notes.String(), "\n")
	if m.ticks > 0 {
		top += m.charts(m.height - used - 1) // the last row stays free: a full screen's last newline would scroll it
	}
	return fitHeight(top+notes.String(), m.height)
}

// fitHeight keeps the first height lines of screen.
func fitHeight(screen string, height int) string {
	if height <= 0 {
		return screen
	}
	lines := strings.SplitAfter(screen, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	return strings.Join(lines, "")
}

// warmNote marks the figures of the warmup as such: while it goes on,
// the percentiles are the warmup's, not the run's.
func (m model) warmNote() string {
	if m.tick.Warmup {
		return m.st.dim.Render(" · the warmup's, not counted")
	}
	return ""
}

// row writes one labelled line, clipped to the screen's width.
func (m model) row(b *strings.Builder, label, text string) {
	pad := fmt.Sprintf("  %-*s", labelWidth, label)
	b.WriteString(m.st.label.Render(pad) + lipgloss.NewStyle().MaxWidth(max(m.width-len(pad), 1)).Render(text) + "\n")
}

// stepText is a setup step: what it waits for and for how long, or how
// long it took and its summary ("2 sessions"), never the words of a wait
// that is over.
func (m model) stepText(s step) string {
	if !s.ended.IsZero() {
		done := m.st.good.Render("done") + " in " + numfmt.Ms(ms(s.ended.Sub(s.began)))
		if s.summary != "" {
			done += m.st.dim.Render(" · " + s.summary)
		}
		return done
	}
	if d := m.now.Sub(s.began); d >= time.Second { // first: a long text is clipped at its end
		return whole(d) + " · " + s.text
	}
	return s.text
}

// The phases of a run, as the load line names them.
const (
	phaseWarmup    = "warmup"
	phaseMeasuring = "measuring"
	phaseDraining  = "draining"
)

// phase is the run's phase now: before the first second it is the plan's
// first.
func (m model) phase() string {
	switch {
	case m.ticks == 0 && m.plan.Warmup > 0, m.ticks > 0 && m.tick.Warmup:
		return phaseWarmup
	case m.ticks > 0 && m.tick.Draining:
		return phaseDraining
	}
	return phaseMeasuring
}

// clockOf is the load line's arithmetic: the schedule's total (warmup +
// measured length, the drain not in it: it has no length of its own),
// the elapsed time and what is left, all in whole seconds so that
// elapsed + left = total on every frame; elapsed stops at total while
// the run drains. ok is false for a run ended by a turn count.
func (m model) clockOf() (elapsed, left, total time.Duration, ok bool) {
	total = m.plan.Warmup + m.plan.Length
	if m.ticks > 0 {
		total, elapsed = m.tick.Total, m.tick.Elapsed
	}
	if total <= 0 {
		return wholeSecond(elapsed), 0, 0, false
	}
	total = wholeSecond(total)
	elapsed = min(wholeSecond(elapsed), total)
	return elapsed, total - elapsed, total, true
}

// loadText is the load's line: waiting, or the phase, elapsed of total
// with what is left and a bar (the warmup's part of it drawn apart).
func (m model) loadText() string {
	if !m.ready {
		return m.st.dim.Render("waiting for the sessions")
	}
	phase := m.st.title.Render(m.phase())
	elapsed, left, total, ok := m.clockOf()
	if !ok {
		return phase + " · " + elapsed.String() + m.st.dim.Render(" · until the turn count is reached")
	}
	text := fmt.Sprintf("%s · %s of %s · %s left", phase, elapsed, total, left)
	if m.phase() == phaseDraining {
		return text + fmt.Sprintf(" · %s turns in flight end", numfmt.Count(m.tick.InFlight))
	}
	done := float64(elapsed) / float64(total)
	warm := float64(min(m.plan.Warmup, total)) / float64(total)
	return fmt.Sprintf("%s  %s %d%%", text, bar(done, warm, min(max(m.width-70, 10), 30)), int(done*100))
}

// phasesText names the run's phases in order, the current one marked:
// the warmup (not counted), the measured phase, and the drain after the
// schedule, which waits up to a turn's deadline for the turns in flight.
func (m model) phasesText() string {
	now := m.phase()
	mark := func(name, text string) string {
		if name == now {
			return m.st.title.Render("▶ " + text)
		}
		return m.st.dim.Render(text)
	}
	var parts []string
	if m.plan.Warmup > 0 {
		parts = append(parts, mark(phaseWarmup, "warmup "+m.plan.Warmup.String()+" (not counted)"))
	}
	measuring := "measuring " + m.plan.Length.String()
	if m.plan.Length <= 0 {
		measuring = fmt.Sprintf("measuring %s turns", numfmt.Count(int64(m.plan.Turns)))
	}
	parts = append(parts, mark(phaseMeasuring, measuring))
	drain := "draining"
	if m.plan.Deadline > 0 {
		drain += " ≤ " + numfmt.Ms(ms(m.plan.Deadline))
	}
	parts = append(parts, mark(phaseDraining, drain))
	return strings.Join(parts, m.st.dim.Render(" → "))
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
	if v, ok := m.perSecond(func(t stats.Progress) int64 { return t.Turns }, false); ok {
		achieved = numfmt.Sig3(v) + "/s"
	}
	if v, ok := m.perSecond(func(t stats.Progress) int64 { return t.Reads }, false); ok {
		reads = numfmt.Sig3(v) + "/s"
	}
	line := fmt.Sprintf("turns asked %s · achieved %s · reads %s · in flight %s", asked, achieved, reads, numfmt.Count(t.InFlight))
	if m.short >= overloadSeconds {
		line += " · " + m.st.bad.Render("overloaded: short of the rate asked")
	}
	return line
}

// overloadSeconds is how many whole seconds in a row must start under 90%
// of the turns asked before the view says the run is overloaded: one
// short second is noise (a late tick, a pause), two are a trend, and the
// rate asked then (not the run's mean) is the bar, so a ramp's rising
// rate is never called short for what it asked before.
const overloadSeconds = 2

// sparkText is the sparkline of each measured second's read p99 on a
// scale from zero to a ceiling that only grows (shown), warmup seconds
// drawn apart and out of the scale, with the last measured second's p99.
func (m model) sparkText() string {
	if m.p99Top == 0 {
		if len(m.p99s) > 0 && m.p99s[len(m.p99s)-1].warm {
			return string(warmCell) + m.st.dim.Render("  warmup seconds, not on the scale")
		}
		return m.st.dim.Render("no reads yet")
	}
	var last time.Duration
	for _, v := range m.p99s {
		if !v.warm && v.p99 > 0 {
			last = v.p99
		}
	}
	w := min(max(m.width-labelWidth-48, 10), 120)
	legend := fmt.Sprintf("  scale 0–%s · last %s", numfmt.Ms(ms(m.p99Top)), numfmt.Ms(ms(last)))
	if len(m.p99s) > 0 && m.p99s[0].warm {
		legend += " · " + string(warmCell) + " warmup"
	}
	return sparkline(m.p99s, w, m.p99Top) + m.st.dim.Render(legend)
}

// bytesText is the phase's wire and disk bytes and their rates.
func (m model) bytesText() string {
	t := m.tick.Phase
	one := func(n int64, count func(stats.Progress) int64) string {
		s := numfmt.Bytes(n)
		if v, ok := m.perSecond(count, true); ok {
			s += " (" + numfmt.Bytes(int64(v)) + "/s)"
		}
		return s
	}
	return "wire " + one(t.WireBytes, func(t stats.Progress) int64 { return t.Phase.WireBytes }) +
		" · disk " + one(t.DiskBytes, func(t stats.Progress) int64 { return t.Phase.DiskBytes })
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

// percentiles writes p50, p90 and p99, each "≥" when it is a lower
// bound (reads or turns cut at a limit hold that quantile), as the
// reports write them.
func percentiles(p stats.Percentiles) string {
	if p.Count == 0 && p.P99 == 0 {
		return "-"
	}
	at := func(q float64, v time.Duration) string {
		if p.AtLeast(q) {
			return "≥" + numfmt.Ms(ms(v))
		}
		return numfmt.Ms(ms(v))
	}
	return fmt.Sprintf("p50 %s · p90 %s · p99 %s", at(0.5, p.P50), at(0.9, p.P90), at(0.99, p.P99))
}

// bar draws a share done (0..1) in width cells, the first warm of the
// whole (the warmup) drawn ▓ when done, the rest █.
func bar(done, warm float64, width int) string {
	n := min(int(done*float64(width)+0.5), width)
	w := min(int(warm*float64(width)+0.5), n)
	return strings.Repeat("▓", w) + strings.Repeat("█", n-w) + strings.Repeat("░", width-n)
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
