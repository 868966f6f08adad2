package live

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/readbench/readbench/stats"
)

// Outline is what the view knows of a run before its first second: the
// phases it will go through, so the warmup is named from the start and
// the drain after the schedule is announced; and the sessions it opens,
// so the connect step, once done, says only how many.
type Outline struct {
	Warmup   time.Duration // the warmup's length (0: none)
	Length   time.Duration // the measured phase's length (0: ended by a turn count)
	Turns    int           // the measured turns, when they end the run
	Deadline time.Duration // a turn's deadline: the longest the drain waits for one
	Sessions int
}

// keptNotes is how many of the latest notes the screen shows.
const keptNotes = 4

// Messages the program's model is sent. Each carries the moment it was
// sent, so what is drawn (a step's elapsed time) depends on the messages
// alone and tests need no clock.
type (
	stepMsg struct {
		stage, text, summary string
		at                   time.Time
	}
	readyMsg struct{ at time.Time }
	tickMsg  struct {
		tick stats.Progress
		at   time.Time
	}
	noteMsg  struct{ text string }
	clockMsg struct{ at time.Time }
)

// step is one stage before the load (connect, discover): what it waits
// for now, what it says once over (summary: "2 sessions"), and when it
// began and ended (zero: still under way).
type step struct {
	stage, text, summary string
	began, ended         time.Time
}

// spot is one second's read p99 for the sparkline, and whether that
// second was the warmup's (drawn apart, out of the scale).
type spot struct {
	p99  time.Duration
	warm bool
}

// secReads is one second's reads for the per-second chart: those that
// ended as asked (ok or an expected error) and those with an error.
type secReads struct {
	ok, errs int64
	warm     bool
}

// model is the view's state: plain data, changed only by Update.
type model struct {
	title         string
	plan          Outline
	width, height int
	st            styles
	now           time.Time // the latest moment a message told of

	steps []step
	ready bool // the schedule has started

	ticks      int
	tick, prev stats.Progress
	p99s       []spot         // read p99 of each second, for the sparkline
	p99Top     time.Duration  // the sparkline's ceiling: only grows
	seconds    []secReads     // reads of each second, for the per-second chart
	rateTop    float64        // the per-second chart's ceiling: only grows
	lastSec    time.Duration  // the second the latest recorded tick told
	base       stats.Progress // that tick: the per-second chart counts from it
	// short is how many whole seconds in a row started fewer than 90%
	// of the turns asked: two or more, and the view says overloaded.
	short int
	notes []string // the latest keptNotes notes
}

// newModel returns the model of a run named title with plan, drawn with
// st.
func newModel(title string, plan Outline, st styles) model {
	return model{title: title, plan: plan, st: st, width: 80, height: 24}
}

// Init starts the clock that redraws the screen a few times a second
// until the schedule starts, so a slow step's elapsed time advances
// between the run's own messages; from then on the run's seconds do.
func (m model) Init() tea.Cmd { return clock() }

// clockEvery is the clock's period: a step's whole seconds are drawn at
// most this late.
const clockEvery = 250 * time.Millisecond

func clock() tea.Cmd {
	return tea.Tick(clockEvery, func(t time.Time) tea.Msg { return clockMsg{at: t} })
}

// Update applies one message.
func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case clockMsg:
		m.at(msg.at)
		if m.ready {
			return m, nil
		}
		return m, clock()
	case stepMsg:
		m.at(msg.at)
		m.step(msg)
	case readyMsg:
		m.at(msg.at)
		m.start(msg.at)
	case tickMsg:
		m.at(msg.at)
		m.start(msg.at)
		m.prev, m.tick = m.tick, msg.tick
		m.ticks++
		m.record()
	case noteMsg:
		m.notes = append(m.notes, msg.text)
		if len(m.notes) > keptNotes {
			m.notes = m.notes[len(m.notes)-keptNotes:]
		}
	}
	return m, nil
}

// at moves the model's clock forward to t (never back).
func (m *model) at(t time.Time) {
	if t.After(m.now) {
		m.now = t
	}
}

// step records a setup step: a new stage ends the one before.
func (m *model) step(s stepMsg) {
	if m.ready {
		return
	}
	if n := len(m.steps); n > 0 && m.steps[n-1].stage == s.stage {
		m.steps[n-1].text, m.steps[n-1].summary = s.text, s.summary
		return
	}
	m.endStep(s.at)
	m.steps = append(m.steps, step{stage: s.stage, text: s.text, summary: s.summary, began: s.at})
}

// start marks the schedule started: the setup is over.
func (m *model) start(at time.Time) {
	if !m.ready {
		m.endStep(at)
		m.ready = true
	}
}

func (m *model) endStep(at time.Time) {
	if n := len(m.steps); n > 0 && m.steps[n-1].ended.IsZero() {
		m.steps[n-1].ended = at
	}
}

// perSecond is how much of a running count (of turns, reads, bytes) the
// last second added, per second; ok is false when it cannot be said: no
// tick yet, or, for a count of the phase (phased), the phase changed
// between the two ticks (its counts began again).
func (m model) perSecond(count func(stats.Progress) int64, phased bool) (float64, bool) {
	if m.ticks == 0 {
		return 0, false
	}
	prev := m.prev
	if m.ticks == 1 {
		prev = stats.Progress{Warmup: m.tick.Warmup}
	}
	d := (m.tick.Elapsed - prev.Elapsed).Seconds()
	n := count(m.tick) - count(prev)
	if d <= 0 || n < 0 || (phased && prev.Warmup != m.tick.Warmup) {
		return 0, false
	}
	return float64(n) / d, true
}

// record adds the latest tick's second to the sparkline and the
// per-second chart, and grows their ceilings: scales that only grow, so
// a bar once drawn keeps its height when a later second is faster. A
// second tick within one second (the drain's first, sent as the schedule
// ends) adds nothing: its second is drawn by the tick that told it.
func (m *model) record() {
	t := m.tick
	sec := wholeSecond(t.Elapsed)
	if m.ticks > 1 && sec <= m.lastSec {
		return
	}
	m.lastSec = sec
	m.p99s = append(m.p99s, spot{p99: t.Phase.SecondP99, warm: t.SecondWarmup})
	if !t.SecondWarmup {
		m.p99Top = max(m.p99Top, niceCeil(t.Phase.SecondP99))
	}
	base := m.base
	m.base = t
	d := (t.Elapsed - base.Elapsed).Seconds()
	if turns := float64(t.Turns - base.Turns); d > 0 && t.Asked > 0 && !t.Draining && turns < 0.9*t.Asked*d {
		m.short++
	} else {
		m.short = 0
	}
	ok, errs := (t.Reads-t.Errors)-(base.Reads-base.Errors), t.Errors-base.Errors
	if d <= 0 || ok < 0 || errs < 0 {
		return
	}
	s := secReads{ok: int64(float64(ok)/d + 0.5), errs: int64(float64(errs)/d + 0.5), warm: base.Elapsed < m.plan.Warmup}
	m.seconds = append(m.seconds, s)
	m.rateTop = max(m.rateTop, niceCeilRate(float64(s.ok+s.errs)))
}

// wholeSecond is d rounded to the second: the ticks come just after each
// whole second of the schedule, so this is the second they tell.
func wholeSecond(d time.Duration) time.Duration { return d.Round(time.Second) }
