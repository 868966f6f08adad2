package live

import (
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/readbench/readbench/stats"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// plain is a model drawn without colours (a renderer on no terminal), so
// tests read the words.
func plain(width int) model {
	return plainOf(width, Outline{Length: 10 * time.Second, Deadline: 800 * time.Millisecond, Sessions: 2})
}

// plainOf is plain for a run of plan.
func plainOf(width int, plan Outline) model {
	m := newModel("readbench run · w · the embedded simulated server", plan, newStyles(lipgloss.NewRenderer(io.Discard)))
	m.width, m.height = width, 40
	return m
}

// feed sends msgs to m in order and returns the model after them.
func feed(m model, msgs ...tea.Msg) model {
	for _, msg := range msgs {
		next, _ := m.Update(msg)
		m = next.(model)
	}
	return m
}

// second is tick n of a run of 10 s asking 10 turns/s, with reads so far,
// turns started and the second's p99.
func second(n int, turns, reads int64, p99 time.Duration) tickMsg {
	var c stats.Counts
	c[stats.OK] = reads
	return tickMsg{at: t0.Add(time.Duration(n) * time.Second), tick: stats.Progress{
		Elapsed: time.Duration(n) * time.Second, Total: 10 * time.Second, Asked: 10,
		Turns: turns, Reads: reads, InFlight: 2,
		Phase: stats.Live{
			Outcomes:   c,
			ByteCounts: stats.ByteCounts{WireBytes: reads * 4000, DiskBytes: reads * 3000},
			Read:       stats.Percentiles{P50: 12 * time.Millisecond, P90: 30 * time.Millisecond, P99: p99},
			Turn:       stats.Percentiles{P50: 20 * time.Millisecond, P90: 40 * time.Millisecond, P99: 80 * time.Millisecond},
			Lag:        stats.Percentiles{P50: 50 * time.Microsecond, P90: 100 * time.Microsecond, P99: 2 * time.Millisecond},
			SecondP99:  p99,
		},
	}}
}

// lineOf is the drawn line that starts with label (after the indent).
func lineOf(t *testing.T, screen, label string) string {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "  "+label) {
			return l
		}
	}
	t.Fatalf("no %q line in:\n%s", label, screen)
	return ""
}

func TestSetupSteps(t *testing.T) {
	m := feed(plain(120),
		stepMsg{stage: "connect", text: "connecting to S: starting the server", at: t0},
		stepMsg{stage: "connect", text: "connecting to S: waiting for the server to answer the handshake", at: t0.Add(200 * time.Millisecond)},
	)
	if got := lineOf(t, m.View(), "connect"); !strings.HasSuffix(got, "waiting for the server to answer the handshake") {
		t.Errorf("a step under a second shows no time: %q", got)
	}
	m = feed(m, clockMsg{at: t0.Add(2500 * time.Millisecond)})
	if got := lineOf(t, m.View(), "connect"); !strings.HasSuffix(got, "connect    2s · connecting to S: waiting for the server to answer the handshake") {
		t.Errorf("a slow step shows its time as the clock goes: %q", got)
	}
	if got := lineOf(t, m.View(), "load"); !strings.Contains(got, "waiting for the sessions") {
		t.Errorf("load before the schedule: %q", got)
	}
	m = feed(m, stepMsg{stage: "discover", text: "discovering S: resources/list, page 2 (200 listed)", at: t0.Add(3 * time.Second)})
	if got := lineOf(t, m.View(), "connect"); !strings.Contains(got, "done in 3.00s") {
		t.Errorf("the next stage ends the one before: %q", got)
	}
	m = feed(m, readyMsg{at: t0.Add(3500 * time.Millisecond)})
	screen := m.View()
	if got := lineOf(t, screen, "discover"); !strings.Contains(got, "done in 500ms") {
		t.Errorf("ready ends the last stage: %q", got)
	}
	if got := lineOf(t, screen, "load"); !strings.Contains(got, "measuring · 0s of 10s · 10s left") {
		t.Errorf("load once ready, before its first second: %q", got)
	}
	if strings.Contains(screen, "rate") {
		t.Errorf("figures drawn before any:\n%s", screen)
	}
	m = feed(m, stepMsg{stage: "connect", text: "late", at: t0.Add(4 * time.Second)})
	if after := m.View(); after != screen {
		t.Errorf("a step after ready changed the screen:\n%s", after)
	}
}

func TestTicksDrawn(t *testing.T) {
	m := feed(plain(120), readyMsg{at: t0},
		second(1, 10, 40, 40*time.Millisecond),
		second(2, 19, 76, 90*time.Millisecond),
	)
	screen := m.View()
	for label, want := range map[string]string{
		"load":     "2s of 10s · 8s left  ██████░░░░░░░░░░░░░░░░░░░░░░░░ 20%",
		"rate":     "turns asked 10.0/s · achieved 9.00/s · reads 36.0/s · in flight 2",
		"read":     "p50 12.0ms · p90 30.0ms · p99 90.0ms",
		"turn":     "p50 20.0ms · p90 40.0ms · p99 80.0ms",
		"lag":      "p50 50.0µs · p90 100µs · p99 2.00ms",
		"p99 each": "▄█  scale 0–100ms · last 90.0ms",
		"bytes":    "wire 304 kB (144 kB/s) · disk 228 kB (108 kB/s)",
		"outcomes": "76 reads · ok 76 (100.0%)",
	} {
		if got := lineOf(t, screen, label); !strings.HasSuffix(got, want) {
			t.Errorf("%s line %q, want it to end %q", label, got, want)
		}
	}
	// A third second: the sparkline grows, the rates follow the last second.
	m = feed(m, second(3, 29, 116, 60*time.Millisecond))
	screen = m.View()
	if got := lineOf(t, screen, "p99 each"); !strings.Contains(got, "▄█▅  scale 0–100ms · last 60.0ms") {
		t.Errorf("third second: %q", got)
	}
	if got := lineOf(t, screen, "rate"); !strings.Contains(got, "achieved 10.0/s · reads 40.0/s") {
		t.Errorf("third second: %q", got)
	}
}

func TestFirstTickRatesAreTheMean(t *testing.T) {
	m := feed(plain(120), second(2, 18, 72, time.Millisecond))
	if got := lineOf(t, m.View(), "rate"); !strings.Contains(got, "achieved 9.00/s · reads 36.0/s") {
		t.Errorf("first tick at 2s: %q", got)
	}
}

func TestWarmupAndPhaseChange(t *testing.T) {
	warm := second(1, 10, 40, 30*time.Millisecond)
	warm.tick.Warmup, warm.tick.SecondWarmup = true, true
	m := feed(plainOf(120, Outline{Warmup: 2 * time.Second, Length: 8 * time.Second}), warm)
	if got := lineOf(t, m.View(), "load"); !strings.Contains(got, "warmup · 1s of 10s · 9s left  ▓▓▓░░") {
		t.Errorf("warmup: %q", got)
	}
	// The measured phase's bytes begin again: no rate from the warmup's.
	m = feed(m, second(2, 20, 10, 30*time.Millisecond))
	screen := m.View()
	if got := lineOf(t, screen, "bytes"); got != "  bytes      wire 40.0 kB · disk 30.0 kB" {
		t.Errorf("bytes across the phase change: %q", got)
	}
	if got := lineOf(t, screen, "rate"); !strings.Contains(got, "achieved 10.0/s") {
		t.Errorf("turns count both phases, so their rate holds across the change: %q", got)
	}
}

func TestOutcomesAndErrors(t *testing.T) {
	tk := second(1, 10, 40, time.Millisecond)
	tk.tick.Phase.Outcomes = stats.Counts{}
	tk.tick.Phase.Outcomes[stats.OK] = 36
	tk.tick.Phase.Outcomes[stats.ExpectedError] = 2
	tk.tick.Phase.Outcomes[stats.Timeout] = 2
	m := feed(plain(120), tk)
	got := lineOf(t, m.View(), "outcomes")
	if want := "40 reads · ok 36 (90.0%) · expected_error 2 (5.0%) · timeout 2 (5.0%)"; !strings.HasSuffix(got, want) {
		t.Errorf("outcomes %q, want %q", got, want)
	}
}

func TestTurnCountRunAndEmptyFigures(t *testing.T) {
	tk := second(3, 0, 0, 0)
	tk.tick.Total, tk.tick.Asked = 0, 0
	tk.tick.Phase = stats.Live{}
	screen := feed(plain(120), tk).View()
	for label, want := range map[string]string{
		"load":     "3s · until the turn count is reached",
		"rate":     "turns asked - ·",
		"read":     "read       -",
		"p99 each": "no reads yet",
	} {
		if got := lineOf(t, screen, label); !strings.Contains(got, want) {
			t.Errorf("%s line %q, want %q", label, got, want)
		}
	}
}

func TestNotesKeepTheLatest(t *testing.T) {
	m := plain(40)
	for _, n := range []string{"one", "two", "three", "four", "five", strings.Repeat("x", 60)} {
		m = feed(m, noteMsg{text: n})
	}
	screen := m.View()
	if strings.Contains(screen, "two") || !strings.Contains(screen, "three") {
		t.Errorf("want the latest %d notes:\n%s", keptNotes, screen)
	}
	if !strings.Contains(screen, strings.Repeat("x", 37)+"…") {
		t.Errorf("a long note is clipped to the width:\n%s", screen)
	}
}

func TestLinesFitTheWidth(t *testing.T) {
	for _, width := range []int{60, 80, 200} {
		m := feed(plain(width), stepMsg{stage: "connect", text: strings.Repeat("long words ", 30), at: t0},
			readyMsg{at: t0.Add(time.Second)})
		for i := 1; i <= 300; i++ {
			m = feed(m, second(i, int64(10*i), int64(40*i), time.Duration(i%17+1)*time.Millisecond))
		}
		for _, l := range strings.Split(m.View(), "\n") {
			if w := lipgloss.Width(l); w > width {
				t.Errorf("width %d: a line of %d cells: %q", width, w, l)
			}
		}
	}
}

// BenchmarkSecond is what the view costs each second of a run: one tick
// applied and the screen drawn, with an hour of sparkline behind it.
func BenchmarkSecond(b *testing.B) {
	m := feed(plain(120), readyMsg{at: t0})
	for i := 1; i <= 3600; i++ {
		m = feed(m, second(i, int64(10*i), int64(40*i), time.Duration(i%17+1)*time.Millisecond))
	}
	b.ResetTimer()
	for i := range b.N {
		m = feed(m, second(3601+i, int64(10*i), int64(40*i), time.Millisecond))
		_ = m.View()
	}
}

func TestClockStopsOnceReady(t *testing.T) {
	m := plain(80)
	if _, cmd := m.Update(clockMsg{at: t0}); cmd == nil {
		t.Error("before the schedule the clock goes on")
	}
	m = feed(m, readyMsg{at: t0})
	if _, cmd := m.Update(clockMsg{at: t0.Add(time.Second)}); cmd != nil {
		t.Error("once the schedule started the clock goes on: the run's seconds redraw the screen")
	}
}
