package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestViewsFitTmuxPanes: report (brief and --full), compare and
// inflation, printed in tmux panes of 80×24 and 120×40 as a person runs
// them, fit the pane: the terminal wraps none of their lines (the pane's
// history read with and without joining wrapped lines is the same), and
// each exits as it does off a terminal.
func TestViewsFitTmuxPanes(t *testing.T) {
	t.Parallel()
	s := newTmux(t)
	dir := t.TempDir()
	for _, out := range []string{"a.json", "b.json"} {
		if _, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--rate", "20/s", "-q", "--out", out); code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
	}
	views := []string{"report a.json", "report a.json --full", "compare a.json b.json", "inflation 1834208 40x3MB"}
	var panes []string
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for i, v := range views {
			name := fmt.Sprintf("fit-%dx%d-%d", size[0], size[1], i)
			s.startSized(name, dir, binary+" "+v, size[0], size[1])
			panes = append(panes, name)
		}
	}
	deadline := time.Now().Add(time.Minute)
	for i, name := range panes {
		for !strings.Contains(s.screen(name, true), "readbench-exit=") {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no exit within a minute:\n%s", name, s.screen(name, false))
			}
			time.Sleep(100 * time.Millisecond)
		}
		history := func(join bool) []string {
			args := []string{"capture-pane", "-p", "-t", name, "-S", "-"}
			if join {
				args = append(args, "-J")
			}
			out, err := s.cmd(args...).Output()
			if err != nil {
				t.Fatalf("tmux capture-pane: %v", err)
			}
			return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		}
		rows, lines := history(false), history(true)
		if len(rows) != len(lines) {
			t.Errorf("%s (%s): the pane wrapped %d lines:\n%s", name, views[i%len(views)], len(rows)-len(lines), strings.Join(lines, "\n"))
		}
		if m := exitLine.FindStringSubmatch(strings.Join(lines, "\n")); m == nil || m[1] != "0" {
			t.Errorf("%s (%s): exit %v", name, views[i%len(views)], m)
		}
	}
}
