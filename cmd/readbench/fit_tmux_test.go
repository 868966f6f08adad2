package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// fitAB and fitCapacity are an ab experiment and a capacity search short
// enough for a test, writing into out, as words a shell reads (quoted
// with ", as the panes' command line is in ').
func fitAB(out string) string {
	return "ab --base embedded --new embedded --rounds 2 --max-rounds 2 --duration 500ms --warmup 0s --rate 20/s " +
		"--fail-on read.p50=+50% --force -q --out " + out
}

func fitCapacity(out string) string {
	return "capacity --slo \"read.p99<1s\" --from 10/s --to 20/s --step-duration 500ms --step-warmup 0s " +
		"--refine 0 --hold 0 --force -q --out " + out
}

// verdictExit: run, ab and capacity exit 1 for a verdict that is not a
// pass (a run overloaded on a busy machine, an undecided bound in two
// rounds, a knee the busy machine hid), which is a view like any other;
// every other view exits 0.
func verdictExit(view, code string) bool {
	return code == "1" && (strings.HasPrefix(view, "run ") || strings.HasPrefix(view, "ab ") || strings.HasPrefix(view, "capacity "))
}

// TestViewsFitTmuxPanes: run, report (brief and --full), compare,
// inflation, ab and capacity, printed in tmux panes of 80×24 and 120×40 as
// a person runs them, fit the pane: the terminal wraps none of their lines (the pane's
// history read with and without joining wrapped lines is the same), and
// each exits as it does off a terminal.
func TestViewsFitTmuxPanes(t *testing.T) {
	t.Parallel()
	s := newTmux(t)
	dir := t.TempDir()
	// The runs the views read. A contended machine may fail one (exit 1,
	// overloaded, which it says); its file is written all the same.
	for _, out := range []string{"a.json", "b.json"} {
		if _, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--rate", "20/s", "-q", "--out", out); code > 1 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
	}
	var panes, views []string
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		out := fmt.Sprintf("%dx%d", size[0], size[1]) // the panes run at once: ab's and capacity's folders apart
		for i, v := range []string{"report a.json", "report a.json --full", "compare a.json b.json", "inflation 1834208 40x3MB",
			"run --duration 1s --rate 20/s -o run-" + out + ".json", fitAB("ab-" + out), fitCapacity("caps-" + out)} {
			views = append(views, v)
			name := fmt.Sprintf("fit-%dx%d-%d", size[0], size[1], i)
			s.startSized(name, dir, binary+" "+v, size[0], size[1])
			panes = append(panes, name)
		}
	}
	deadline := time.Now().Add(2 * time.Minute) // 14 panes at once on a machine that may be busy
	for i, name := range panes {
		for !strings.Contains(s.screen(name, true), "readbench-exit=") {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no exit within two minutes:\n%s", name, s.screen(name, false))
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
			t.Errorf("%s (%s): the pane wrapped %d lines:\n%s", name, views[i], len(rows)-len(lines), strings.Join(lines, "\n"))
		}
		if m := exitLine.FindStringSubmatch(strings.Join(lines, "\n")); m == nil || m[1] != "0" && !verdictExit(views[i], m[1]) {
			t.Errorf("%s (%s): exit %v", name, views[i], m)
		}
	}
}
