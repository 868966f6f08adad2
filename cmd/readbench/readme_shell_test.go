package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/hostload"
)

// The README's tour as a person pastes it (issue 46, items 1 and 2): one
// interactive bash in a tmux pane of 120×40, at the root of a copy of the
// clone's tracked files, every line sent as the README writes it (only
// its loopback ports changed), one after the other in that one shell, so
// that what one line leaves in the shell (a server started with &, the
// folder it moved to) is there for the next, as it is for a person. Run a
// line each in its own `sh -c`, the tour hid both first-sight failures: a
// bare `wait` waited for the server of line 1 for ever, and the files it
// saved landed in the `ab/` and `barrier/` packages of the clone.

// tourLineLimit bounds each line: the longest (ab's rounds, capacity's
// steps) take about a minute on a saturated 2-core machine.
const tourLineLimit = 4 * time.Minute

// tourMarkRE is the marker the test types after each line, as printed:
// the typed command shows `$?`, never digits, so only its output matches.
var tourMarkRE = regexp.MustCompile(`(?m)^@tour-(\d+) exit=(\d+)\s*$`)

// TestReadmeTour pastes the tour into one shell and checks each line's
// exit status — 1 where its comment starts "exit 1", else 0, or 1 for a
// line that measures on a contended machine when it says so (a run's
// "the machine was contended", README) — that every line ends (the shell
// comes back), that the shards' merged results are written, and that the
// clone is left as it was found: `git status --porcelain --ignored` empty.
func TestReadmeTour(t *testing.T) {
	t.Parallel()
	s := newTmux(t)
	clone, aside := copyClone(t), t.TempDir()
	ports := map[string]string{}
	raw := readmeBlock(t, "## A short tour", "sh")
	lines := parseTour(t, raw, ports)
	if len(lines) < 20 || !strings.HasPrefix(lines[0].cmd, "readbench serve --listen") && !strings.HasPrefix(lines[1].cmd, "readbench serve --listen") {
		t.Fatalf("the tour has %d lines, the first %q: want it to start the server the others use at its top", len(lines), lines[0].text)
	}
	env := append(tourEnv(aside), "TMPDIR="+filepath.Join(aside, "tmp"), "PS1=tour$ ", "TERM=xterm-256color")
	if err := os.Mkdir(filepath.Join(aside, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := s.cmd("start-server", ";", "set-option", "-g", "history-limit", "100000", ";",
		"new-session", "-d", "-s", "tour", "-x", "120", "-y", "40", "-c", clone, "bash --norc --noprofile -i")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	prev := 0 // where the last line's output ended in the pane's history
	for i, l := range lines {
		text := withPorts(l.text, ports)
		machine := hostload.Watch()
		s.send(text)
		s.send(fmt.Sprintf(`echo "@tour-%d exit=$?"`, i))
		code, out, end := s.waitMark(i, prev, text)
		prev = end
		t.Logf("exit %d: %s (%s)", code, text, machine)
		if l.background {
			waitListening(t, l, text)
		}
		claim := strings.Contains(out, contendedClaim)
		switch {
		case code == l.want:
		case code == 1 && l.want == 0 && l.measures && (claim || !strings.HasPrefix(l.cmd, "readbench run") && machine.Busy()):
			// readbench's own answer on a busy machine (README, the
			// tour's top): a run says so, another line's window shows it.
			t.Logf("line %d: exit 1 on a contended machine, readbench's own answer (%s):\n%s", i+1, machine, tail(out, 6))
		default:
			t.Errorf("line %d %q: exit %d, want %d (%s):\n%s", i+1, text, code, l.want, machine, tail(out, 14))
		}
	}
	folders, _ := filepath.Glob(filepath.Join(aside, "tmp", "tmp.*"))
	if len(folders) != 1 {
		t.Errorf("the tour's scratch folders: %v, want the one its first line made", folders)
	}
	for _, f := range folders {
		for _, want := range []string{"at.json", "whole.json", "base.json", "report.html", "ab-runs/base"} {
			if _, err := os.Stat(filepath.Join(f, want)); err != nil {
				t.Errorf("the tour did not save %s in its folder: %v", want, err)
			}
		}
	}
	status, err := gitIn(clone, "status", "--porcelain", "--ignored")
	if err != nil || status != "" {
		t.Errorf("the tour changed the clone it was pasted in (%v): git status --porcelain --ignored:\n%s", err, status)
	}
}

// send types text into the tour's shell and presses Enter, as a paste of
// one line does.
func (s *tmuxServer) send(text string) {
	s.t.Helper()
	if out, err := s.cmd("send-keys", "-t", "tour", "-l", text).CombinedOutput(); err != nil {
		s.t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
	if out, err := s.cmd("send-keys", "-t", "tour", "Enter").CombinedOutput(); err != nil {
		s.t.Fatalf("tmux send-keys Enter: %v\n%s", err, out)
	}
}

// waitMark waits (tourLineLimit at most) for the marker typed after line
// i to be printed, and returns the exit status it shows, what the pane
// printed since the previous marker (from offset prev of its history) and
// where this marker ends. A line that does not end — the shell never
// comes back to read the marker — fails the test with the screen.
func (s *tmuxServer) waitMark(i, prev int, text string) (code int, out string, end int) {
	s.t.Helper()
	deadline := time.Now().Add(tourLineLimit)
	for {
		all := s.screen("tour", true)
		for _, m := range tourMarkRE.FindAllStringSubmatchIndex(all, -1) {
			if n, _ := strconv.Atoi(all[m[2]:m[3]]); n == i && m[0] >= prev {
				code, _ = strconv.Atoi(all[m[4]:m[5]])
				return code, all[prev:m[0]], m[1]
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("line %d %q did not end within %s: the shell never came back to the next line. The pane:\n%s",
				i+1, text, tourLineLimit, tail(s.screen("tour", false), 20))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// waitListening waits until the address a background line names accepts
// connections (15 s at most), as a person sees the server up before the
// lines that use it.
func waitListening(t *testing.T, l tourLine, text string) {
	t.Helper()
	addr := loopbackRE.FindString(text)
	if !poll(15*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("%s: nothing listens on %s after 15s", l.text, addr)
	}
}

// withPorts is a README line with its loopback ports replaced by the
// free ones parseTour chose (ports).
func withPorts(line string, ports map[string]string) string {
	return loopbackRE.ReplaceAllStringFunc(line, func(addr string) string {
		return "127.0.0.1:" + ports[loopbackRE.FindStringSubmatch(addr)[1]]
	})
}

// copyClone copies the repository's tracked files, as they are in the
// work tree, into a new git repository of their own with one commit: a
// fresh clone, whose `git status` says what a tour left in it.
func copyClone(t *testing.T) string {
	t.Helper()
	root, dst := filepath.Join("..", ".."), t.TempDir()
	files, err := gitIn(root, "ls-files", "-z")
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(files, "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=tour", "-c", "user.email=tour@example.com", "commit", "-q", "-m", "clone"}} {
		if out, err := gitIn(dst, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dst
}

// gitIn runs git in dir and returns what it printed.
func gitIn(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
