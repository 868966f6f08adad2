//go:build linux

package client

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestParseStat: the parent and the start time are read after the
// command's last ')', whatever the command's name holds.
func TestParseStat(t *testing.T) {
	tail := " S 42 7 7 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 10"
	for _, c := range []struct {
		stat  string
		ppid  int
		start uint64
		ok    bool
	}{
		{"123 (sleep)" + tail, 42, 98765, true},
		{"123 (a) b (c)" + tail, 42, 98765, true},
		{"123 (x y)" + tail, 42, 98765, true},
		{"123 (sleep) S 42", 0, 0, false},
		{"123 sleep" + tail, 0, 0, false},
		{"", 0, 0, false},
	} {
		ppid, start, ok := parseStat([]byte(c.stat))
		if ppid != c.ppid || start != c.start || ok != c.ok {
			t.Errorf("parseStat(%q) = %d, %d, %v; want %d, %d, %v", c.stat, ppid, start, ok, c.ppid, c.start, c.ok)
		}
	}
}

// FuzzParseStat: any text is read without a panic.
func FuzzParseStat(f *testing.F) {
	f.Add([]byte("1 (init) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 9 10 11"))
	f.Add([]byte("2 ()) S"))
	f.Fuzz(func(t *testing.T, b []byte) { _, _, _ = parseStat(b) })
}

// TestDescendants: a child of this process and its own child are listed,
// with the start times signalProcs checks; this process is not.
func TestDescendants(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var pids []int
	for range 500 {
		pids = pids[:0]
		for _, p := range descendants(os.Getpid()) {
			if _, start, ok := statOf(p.pid); !ok || start != p.start {
				t.Errorf("process %d listed with start %d, which /proc does not say", p.pid, p.start)
			}
			pids = append(pids, p.pid)
		}
		if len(descendants(cmd.Process.Pid)) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !slices.Contains(pids, cmd.Process.Pid) || len(descendants(cmd.Process.Pid)) != 1 {
		t.Errorf("descendants = %v, want the shell %d and its sleep", pids, cmd.Process.Pid)
	}
	if slices.Contains(pids, os.Getpid()) {
		t.Error("this process is listed among its own descendants")
	}
}

// BenchmarkDescendants: what listing the tree costs a close (one walk of
// /proc).
func BenchmarkDescendants(b *testing.B) {
	for b.Loop() {
		_ = descendants(os.Getpid())
	}
}
