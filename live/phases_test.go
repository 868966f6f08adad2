package live

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/readbench/readbench/stats"
)

// clockLine reads the load line's phase, elapsed, total and left.
var clockLine = regexp.MustCompile(`load +(warmup|measuring|draining) · (\d+)s of (\d+)s · (\d+)s left`)

// TestClockAddsUpAtThePhaseBoundaries: at every frame, before the first
// second and at the edges of the warmup, the measured phase and the
// drain, the load line names the phase and elapsed + left = total (the
// schedule: warmup + measured length; elapsed stops at it while the run
// drains). The ticks come a hair before or after whole seconds, and a
// phase's edge is not a whole second (a 1.5 s warmup).
func TestClockAddsUpAtThePhaseBoundaries(t *testing.T) {
	plan := Outline{Warmup: 1500 * time.Millisecond, Length: 10 * time.Second, Deadline: 800 * time.Millisecond, Sessions: 2}
	total := plan.Warmup + plan.Length
	at := func(el time.Duration, warm, drain bool) tickMsg {
		return tickMsg{at: t0.Add(el), tick: stats.Progress{Elapsed: el, Total: total, Warmup: warm, Draining: drain, SecondWarmup: warm, InFlight: 3}}
	}
	m := feed(plainOf(120, plan), readyMsg{at: t0})
	for _, tc := range []struct {
		msg   tea.Msg
		phase string
	}{
		{nil, "warmup"}, // ready, no second yet
		{at(999*time.Millisecond, true, false), "warmup"},
		{at(1001*time.Millisecond, true, false), "warmup"},
		{at(1999*time.Millisecond, false, false), "measuring"},
		{at(6500*time.Millisecond, false, false), "measuring"},
		{at(11499*time.Millisecond, false, false), "measuring"},
		{at(11501*time.Millisecond, false, true), "draining"}, // the drain's first, at once
		{at(12003*time.Millisecond, false, true), "draining"},
		{at(12300*time.Millisecond, false, true), "draining"},
	} {
		if tc.msg != nil {
			m = feed(m, tc.msg)
		}
		got := clockLine.FindStringSubmatch(m.View())
		if got == nil {
			t.Fatalf("%v: no clock in:\n%s", tc.msg, m.View())
		}
		el, of, left := atoi(got[2]), atoi(got[3]), atoi(got[4])
		if got[1] != tc.phase || el+left != of || of != 12 {
			t.Errorf("at %v: %q: want the %s phase and elapsed + left = total = 12s (the 11.5s schedule, rounded)", m.tick.Elapsed, got[0], tc.phase)
		}
	}
	if got := lineOf(t, m.View(), "load"); !strings.HasSuffix(got, "12s of 12s · 0s left · 3 turns in flight end") {
		t.Errorf("draining: %q", got)
	}
	if got := lineOf(t, m.View(), "phases"); got != "  phases     warmup 1.5s (not counted) → measuring 10s → ▶ draining ≤ 800ms" {
		t.Errorf("phases while draining: %q", got)
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// TestConnectStepSaysOnlyHowManyOnceDone: the words of the wait ("sessions
// opening (2/2 sessions connected)") go once the stage is over; the line
// says how long it took and how many sessions.
func TestConnectStepSaysOnlyHowManyOnceDone(t *testing.T) {
	m := feed(plain(120), stepMsg{stage: "connect", text: "sessions opening (1/2 sessions connected)", summary: "2 sessions", at: t0},
		stepMsg{stage: "connect", text: "sessions opening (2/2 sessions connected)", summary: "2 sessions", at: t0.Add(10 * time.Millisecond)})
	if got := lineOf(t, m.View(), "connect"); !strings.HasSuffix(got, "sessions opening (2/2 sessions connected)") {
		t.Errorf("while connecting: %q", got)
	}
	m = feed(m, readyMsg{at: t0.Add(40 * time.Millisecond)}, second(1, 10, 40, 30*time.Millisecond))
	screen := m.View()
	if got := lineOf(t, screen, "connect"); got != "  connect    done in 40.0ms · 2 sessions" {
		t.Errorf("connected: %q", got)
	}
	if strings.Contains(screen, "opening") {
		t.Errorf("the wait's words stay on the screen:\n%s", screen)
	}
}

// TestWarmupLabelledAndOutOfTheMeasuredFigures: while the warmup goes
// on its figures say they are the warmup's; its seconds are drawn ░ in
// the sparkline and out of its scale (a slow cold start does not set the
// ceiling), and the histogram is the measured phase's once it begins.
func TestWarmupLabelledAndOutOfTheMeasuredFigures(t *testing.T) {
	m := plainOf(120, Outline{Warmup: 2 * time.Second, Length: 8 * time.Second})
	w1, w2 := second(1, 10, 40, 500*time.Millisecond), second(2, 20, 80, 500*time.Millisecond)
	w1.tick.Warmup, w1.tick.SecondWarmup, w2.tick.SecondWarmup = true, true, true
	m = feed(m, readyMsg{at: t0}, w1)
	screen := m.View()
	if got := lineOf(t, screen, "read"); !strings.HasSuffix(got, "the warmup's, not counted") {
		t.Errorf("the warmup's read line: %q", got)
	}
	if got := lineOf(t, screen, "p99 each"); !strings.HasPrefix(got, "  p99 each s ░  warmup seconds") {
		t.Errorf("the warmup's sparkline: %q", got)
	}
	if !strings.Contains(screen, "the warmup's reads so far") {
		t.Errorf("the histogram does not say it is the warmup's:\n%s", screen)
	}
	m = feed(m, w2, second(3, 30, 120, 40*time.Millisecond))
	screen = m.View()
	if got := lineOf(t, screen, "p99 each"); !strings.HasPrefix(got, "  p99 each s ░░█  scale 0–40.0ms · last 40.0ms · ░ warmup") {
		t.Errorf("measured: %q", got)
	}
	if got := lineOf(t, screen, "read"); strings.Contains(got, "warmup") || !strings.Contains(screen, "measured reads so far") {
		t.Errorf("measured: %q\n%s", got, screen)
	}
}

// TestSparkScaleNeverShrinks: a later, faster second leaves the scale
// and the cells already drawn as they were; a slower one raises it.
func TestSparkScaleNeverShrinks(t *testing.T) {
	m := feed(plain(120), readyMsg{at: t0}, second(1, 10, 40, 90*time.Millisecond), second(2, 20, 80, 50*time.Millisecond))
	before := lineOf(t, m.View(), "p99 each")
	m = feed(m, second(3, 30, 120, 10*time.Millisecond), second(4, 40, 160, 12*time.Millisecond))
	after := lineOf(t, m.View(), "p99 each")
	if !strings.Contains(before, "█▄  scale 0–100ms") || !strings.Contains(after, "█▄▁▁  scale 0–100ms") {
		t.Errorf("faster seconds rescaled the sparkline:\nbefore %q\nafter  %q", before, after)
	}
	m = feed(m, second(5, 50, 200, 180*time.Millisecond))
	if got := lineOf(t, m.View(), "p99 each"); !strings.Contains(got, "▄▂▁▁█  scale 0–200ms") {
		t.Errorf("a slower second raises the ceiling: %q", got)
	}
}

// TestScreenFitsTheTerminal: on a 120×40 terminal the charts take the
// rows the figures leave (the per-second reads beside the histogram); on
// 80×24 the histogram alone; below that, none; and on every size no line
// is wider than the terminal and no more lines are drawn than it has.
// Notes (why reads fail) come before the charts.
func TestScreenFitsTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		width, height, minLines int
		notes                   bool
		charts                  []string
	}{
		{120, 40, 36, false, []string{"reads/s", "read latency"}},
		{120, 40, 36, true, []string{"reads/s", "read latency"}},
		{80, 24, 20, false, []string{"read latency"}},
		{80, 24, 18, true, nil},
		{60, 14, 13, false, nil},
		{40, 8, 8, true, nil},
	} {
		m := plainOf(tc.width, Outline{Length: 300 * time.Second})
		m.height = tc.height
		m = feed(m, stepMsg{stage: "connect", text: strings.Repeat("long words ", 30), summary: "2 sessions", at: t0}, readyMsg{at: t0.Add(time.Second)})
		for i := 1; i <= 120; i++ {
			s := second(i, int64(10*i), int64(40*i), time.Duration(i%17+1)*time.Millisecond)
			s.tick.Errors = int64(i)
			s.tick.Phase.ReadBins[30], s.tick.Phase.ReadBins[33], s.tick.Phase.ReadBins[40] = int64(30*i), int64(9*i), int64(i)
			m = feed(m, s)
			if tc.notes {
				m = feed(m, noteMsg{text: "readbench: a note"})
			}
		}
		screen := m.View()
		lines := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
		if len(lines) > tc.height || len(lines) < tc.minLines {
			t.Errorf("%dx%d (notes %v): %d lines, want %d to %d:\n%s", tc.width, tc.height, tc.notes, len(lines), tc.minLines, tc.height, screen)
		}
		for _, l := range lines {
			if w := lipgloss.Width(l); w > tc.width {
				t.Errorf("%dx%d: a line of %d cells: %q", tc.width, tc.height, w, l)
			}
		}
		for _, want := range []string{"reads/s", "read latency"} {
			if has, wanted := strings.Contains(screen, want), contains(tc.charts, want); has != wanted {
				t.Errorf("%dx%d: %q drawn %v, want %v:\n%s", tc.width, tc.height, want, has, wanted, screen)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
