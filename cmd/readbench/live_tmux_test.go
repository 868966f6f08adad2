package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
)

// The live view tested as a person sees it: readbench runs in a tmux
// pane of a fixed size (a real terminal emulator), and the test reads the
// screen with capture-pane while the run goes on and after it ends.

// tmuxServer is a tmux server of the test's own (its own socket), so no
// user's session is touched; Cleanup kills it and every pane in it.
type tmuxServer struct {
	t    *testing.T
	bin  string
	sock string
}

// newTmux starts nothing yet: it finds tmux, or fails in CI (where
// `make deps` installs it) and skips elsewhere, saying how to get it.
func newTmux(t *testing.T) *tmuxServer {
	t.Helper()
	bin := needs.Tool(t, "tmux", "make deps")
	s := &tmuxServer{t: t, bin: bin, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	t.Cleanup(func() { _ = s.cmd("kill-server").Run() })
	return s
}

func (s *tmuxServer) cmd(args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	s.t.Cleanup(cancel)
	c := exec.CommandContext(ctx, s.bin, append([]string{"-S", s.sock, "-f", "/dev/null"}, args...)...)
	// The pane's own size decides the views' width: no COLUMNS of the
	// tests' (TestMain sets one for the piped runs).
	env := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, "COLUMNS=") })
	c.Env = append(env, "TERM=xterm-256color")
	return c
}

// start runs shell command line in a new detached session of 120×40
// cells, in dir; the pane stays after the command ends (sleep), so its
// last screen can be read.
func (s *tmuxServer) start(name, dir, line string) {
	s.t.Helper()
	s.startSized(name, dir, line, 120, 40)
}

// startSized is start in a pane of width×height cells.
func (s *tmuxServer) startSized(name, dir, line string, width, height int) {
	s.t.Helper()
	if out, err := s.cmd("new-session", "-d", "-s", name, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height), "-c", dir,
		"sh -c '"+line+"; echo readbench-exit=$?; exec sleep 300'").CombinedOutput(); err != nil {
		s.t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
}

// screen is what the pane shows now; with history, the lines scrolled
// off the top too.
func (s *tmuxServer) screen(name string, history bool) string {
	s.t.Helper()
	args := []string{"capture-pane", "-p", "-t", name}
	if history {
		args = append(args, "-S", "-", "-J") // -J: a message the terminal wrapped reads as one line
	}
	out, err := s.cmd(args...).Output()
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v", err)
	}
	return string(out)
}

var (
	liveElapsed = regexp.MustCompile(`load +(warmup|measuring|draining) · (\d+)s of (\d+)s · (\d+)s left`)
	liveRate    = regexp.MustCompile(`turns asked 10\.0/s · achieved [0-9.]+/s`)
	liveP99     = regexp.MustCompile(`read +p50 \S+ · p90 \S+ · p99 [0-9.]+(µs|ms|s)`)
	liveSpark   = regexp.MustCompile(`p99 each s +([▁▂▃▄▅▆▇█░ ]+)  scale 0–`)
	liveCharts  = regexp.MustCompile(`(?s)reads/s · █ ok · ▒ errors · ░ warmup +read latency · measured reads so far.*0 ┤`)
	liveWait    = regexp.MustCompile(`connect +\ds · waiting for the server to answer the handshake \(0/2 sessions connected\) · the handshake timeout is 2\.5`) // the view clips a long line at its end
	exitLine    = regexp.MustCompile(`readbench-exit=(\d+)`)
)

// liveSeen is what the test read of a run's live view while it went on.
type liveSeen struct {
	elapsed map[int]bool    // the elapsed seconds drawn
	spark   map[int]bool    // the sparkline lengths drawn
	rate    bool            // the asked and achieved rate line was drawn
	p99     bool            // the read p99 was drawn
	waiting bool            // the connect step waiting for a handshake was drawn, with its time
	phases  map[string]bool // the phases the load line named
	sums    []string        // load lines whose elapsed + left is not their total
	opening bool            // "sessions opening" on screen once the load began
	charts  bool            // the per-second chart and the histogram were drawn
	rows    int             // the most rows of the pane a frame used
}

// watch reads the panes every 200 ms until each one's command ends (or a
// minute passes) and returns what each live view showed, and each last
// screen.
func (s *tmuxServer) watch(names ...string) (map[string]*liveSeen, map[string]string) {
	s.t.Helper()
	seen, last := map[string]*liveSeen{}, map[string]string{}
	for _, n := range names {
		seen[n] = &liveSeen{elapsed: map[int]bool{}, spark: map[int]bool{}, phases: map[string]bool{}}
	}
	deadline := time.Now().Add(time.Minute)
	for len(last) < len(names) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the runs did not end within a minute; ended: %v", last)
		}
		for _, name := range names {
			if _, ended := last[name]; ended {
				continue
			}
			scr, v := s.screen(name, false), seen[name]
			if exitLine.MatchString(scr) {
				last[name] = scr
				continue
			}
			v.read(scr)
			if m := liveSpark.FindStringSubmatch(scr); m != nil {
				v.spark[len([]rune(strings.TrimSpace(m[1])))] = true
			}
			v.rate = v.rate || liveRate.MatchString(scr)
			v.p99 = v.p99 || liveP99.MatchString(scr)
			v.waiting = v.waiting || liveWait.MatchString(scr)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return seen, last
}

// read notes what one frame's load line and charts show.
func (v *liveSeen) read(scr string) {
	if strings.Contains(scr, "turns asked") { // the load began
		v.opening = v.opening || strings.Contains(scr, "sessions opening")
		v.rows = max(v.rows, strings.Count(strings.TrimRight(scr, "\n "), "\n")+1)
	}
	v.charts = v.charts || liveCharts.MatchString(scr)
	m := liveElapsed.FindStringSubmatch(scr)
	if m == nil {
		return
	}
	n, of, left := atoiOr(m[2]), atoiOr(m[3]), atoiOr(m[4])
	v.elapsed[n], v.phases[m[1]] = true, true
	if n+left != of {
		v.sums = append(v.sums, m[0])
	}
}

func atoiOr(s string) int { n, _ := strconv.Atoi(s); return n }

// TestLiveViewInTmux: a 5 s run with --live, and one with no flag (the
// default on a terminal), each show the live view while they go on: the
// asked and achieved rate and the read p99 drawn, the elapsed time
// advancing and the sparkline growing, the phases named (the warmup's
// frames too) with elapsed + left = total on each, the connect line quiet
// once the load began, and the rows below the figures used by the
// per-second chart and the latency histogram; when they end the normal report is
// on screen, the view's screen is gone and no escape sequence is left
// behind as text. A third run waits for a server that never answers: the
// view shows the connect step and the time waited, then the error is on
// screen.
func TestLiveViewInTmux(t *testing.T) {
	s := newTmux(t)
	dir := t.TempDir()
	runs := map[string]string{
		"asked":   binary + " run --duration 5s --live --out asked.json",
		"default": binary + " run --duration 5s --out default.json",
		"silent":  binary + " run --target \"stdio:sleep 30\" --handshake-timeout 2500ms --live --out silent.json",
	}
	names := []string{"asked", "default", "silent"}
	for _, name := range names {
		s.start(name, dir, runs[name])
	}
	seen, lasts := s.watch(names...)
	// The error is wrapped to the pane: its words are read across lines.
	if v, last := seen["silent"], s.screen("silent", true); !v.waiting ||
		!strings.Contains(strings.Join(strings.Fields(last), " "), "no answer within the handshake timeout of 2.5s") ||
		!strings.Contains(last, "readbench-exit=1") {
		t.Errorf("silent: the wait drawn %v; after it:\n%s", v.waiting, last)
	}
	for _, name := range names[:2] {
		seen, last := seen[name], lasts[name]
		if !seen.rate || !seen.p99 {
			t.Errorf("%s: rate drawn %v, p99 drawn %v", name, seen.rate, seen.p99)
		}
		if len(seen.elapsed) < 3 {
			t.Errorf("%s: the elapsed time drawn took %d values, want 3 or more: %v", name, len(seen.elapsed), seen.elapsed)
		}
		if len(seen.spark) < 3 {
			t.Errorf("%s: the sparkline took %d lengths, want 3 or more: %v", name, len(seen.spark), seen.spark)
		}
		if !seen.phases["warmup"] || !seen.phases["measuring"] || len(seen.sums) > 0 {
			t.Errorf("%s: phases named %v (want the warmup and measuring); frames where elapsed + left is not the total: %q", name, seen.phases, seen.sums)
		}
		if seen.opening || !seen.charts || seen.rows < 34 {
			t.Errorf("%s: \"sessions opening\" stayed %v; charts drawn %v; at most %d of 40 rows used (want 34 or more)", name, seen.opening, seen.charts, seen.rows)
		}
		if m := exitLine.FindStringSubmatch(last); m == nil || m[1] != "0" {
			t.Errorf("%s: exit: %v\n%s", name, m, last)
		}
		all := s.screen(name, true)
		for _, want := range []string{"readbench 0.1.0-dev: docs-attachments", "target     embedded (stdio)", "result saved to " + name + ".json"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: after the run the terminal does not show %q:\n%s", name, want, all)
			}
		}
		for _, gone := range []string{"turns asked", "p99 each s", "\x1b", "[?1049", "[?25", "[?2004"} {
			if strings.Contains(all, gone) {
				t.Errorf("%s: after the run the terminal still shows %q:\n%s", name, gone, all)
			}
		}
	}
}
