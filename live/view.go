package live

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/readbench/readbench/stats"
)

// MinLength is how long a run must be for the view to be shown without
// being asked for (--live): a shorter run is over before a screen of
// figures can be read, and the one-line progress serves it better.
const MinLength = 5 * time.Second

// fps is how often the renderer looks for a new frame: the figures change
// once a second, so a few looks a second show them promptly without
// waking the generator's process sixty times a second (bubbletea's
// default).
const fps = 4

// View is the live view of one run on a terminal: started by Start,
// told of the run by Step, Ready, Progress and Note from any goroutine,
// and ended by Stop, which must be called before anything else is
// written to the terminal.
type View struct {
	out  io.Writer
	p    *tea.Program
	done chan struct{} // closed when the program has ended
	err  error         // the program's, once done is closed

	mu    sync.Mutex
	notes []string // every note, written again below the screen by Stop
	once  sync.Once
}

// Start draws the view of a run named title, of plan, on out (a
// terminal: the command checks) in the alternate screen, so that Stop
// leaves the terminal as it was. Input is not read and no signal is
// caught: the command's own interrupt handling stays in charge.
func Start(out io.Writer, title string, plan Outline) *View {
	m := newModel(title, plan, newStyles(lipgloss.NewRenderer(out)))
	v := &View{
		out:  out,
		done: make(chan struct{}),
		p: tea.NewProgram(m, tea.WithOutput(out), tea.WithInput(nil), tea.WithAltScreen(),
			tea.WithoutSignalHandler(), tea.WithFPS(fps)),
	}
	go func() {
		defer close(v.done)
		_, v.err = v.p.Run()
	}()
	return v
}

// Step tells the view a step before the load: stage ("connect",
// "discover"), what it waits for, in words, and what its line says once
// the stage is over (summary: "2 sessions"; "" says only how long it
// took), so no wait stays on the screen after it ended.
func (v *View) Step(stage, text, summary string) {
	v.p.Send(stepMsg{stage: stage, text: text, summary: summary, at: time.Now()})
}

// Ready tells the view that the setup is over: the schedule starts.
func (v *View) Ready() { v.p.Send(readyMsg{at: time.Now()}) }

// Progress tells the view the run's latest second.
func (v *View) Progress(t stats.Progress) { v.p.Send(tickMsg{tick: t, at: time.Now()}) }

// Note shows a line the run would have printed on stderr (why reads
// fail); Stop writes every note again once the screen is gone.
func (v *View) Note(text string) {
	v.mu.Lock()
	v.notes = append(v.notes, text)
	v.mu.Unlock()
	v.p.Send(noteMsg{text: strings.TrimRight(text, "\n")})
}

// Stop ends the view: it leaves the alternate screen (the terminal shows
// what it showed before the run), writes the notes the screen showed,
// and returns the program's error, if any. It may be called more than
// once; later calls do nothing.
func (v *View) Stop() error {
	var err error
	v.once.Do(func() {
		v.p.Quit()
		<-v.done
		err = v.err
		v.mu.Lock()
		defer v.mu.Unlock()
		for _, n := range v.notes {
			fmt.Fprint(v.out, n)
			if !strings.HasSuffix(n, "\n") {
				fmt.Fprintln(v.out)
			}
		}
	})
	return err
}
