package live

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/readbench/readbench/stats"
)

// Tick is one second of a run's progress: what the driver's progress
// callback says, copied by the command (this package does not import
// the driver).
type Tick struct {
	Elapsed, Total time.Duration // since the schedule started; warmup + length (0: ended by a turn count)
	Warmup         bool          // the warmup is under way: Phase is the warmup's
	Asked          float64       // turns per second the schedule asks for now (0: none, the closed model)
	Turns          int64         // turns started, both phases
	Reads          int64         // reads finished, both phases
	InFlight       int64         // turns in flight
	Phase          stats.Live    // the current phase's figures so far
}

// keptNotes is how many of the latest notes the screen shows.
const keptNotes = 4

// Messages the program's model is sent. Each carries the moment it was
// sent, so what is drawn (a step's elapsed time) depends on the messages
// alone and tests need no clock.
type (
	stepMsg struct {
		stage, text string
		at          time.Time
	}
	readyMsg struct{ at time.Time }
	tickMsg  struct {
		tick Tick
		at   time.Time
	}
	noteMsg  struct{ text string }
	clockMsg struct{ at time.Time }
)

// step is one stage before the load (connect, discover): what it waits
// for now, and when it began and ended (zero: still under way).
type step struct {
	stage, text  string
	began, ended time.Time
}

// model is the view's state: plain data, changed only by Update.
type model struct {
	title         string
	width, height int
	st            styles
	now           time.Time // the latest moment a message told of

	steps []step
	ready bool // the schedule has started

	ticks      int
	tick, prev Tick
	p99s       []time.Duration // read p99 of each second, for the sparkline
	notes      []string        // the latest keptNotes notes
}

// newModel returns the model of a run named title, drawn with st.
func newModel(title string, st styles) model {
	return model{title: title, st: st, width: 80, height: 24}
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
		m.p99s = append(m.p99s, msg.tick.Phase.SecondP99)
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
		m.steps[n-1].text = s.text
		return
	}
	m.endStep(s.at)
	m.steps = append(m.steps, step{stage: s.stage, text: s.text, began: s.at})
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
func (m model) perSecond(count func(Tick) int64, phased bool) (float64, bool) {
	if m.ticks == 0 {
		return 0, false
	}
	prev := m.prev
	if m.ticks == 1 {
		prev = Tick{Warmup: m.tick.Warmup}
	}
	d := (m.tick.Elapsed - prev.Elapsed).Seconds()
	n := count(m.tick) - count(prev)
	if d <= 0 || n < 0 || (phased && prev.Warmup != m.tick.Warmup) {
		return 0, false
	}
	return float64(n) / d, true
}
