//go:build unix

package client

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStdioCloseEndsAStubbornGroup: a child that ignores its stdin
// closing and SIGTERM, and has started a process of its own that ignores
// SIGTERM too, is ended whole by close — within the shutdown's two
// seconds and a little — and leaves nothing running.
func TestStdioCloseEndsAStubbornGroup(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	// sh ignores SIGTERM and so does the sleep it starts (an ignored
	// signal stays ignored across exec); neither reads stdin.
	script := `trap "" TERM; sleep 60 & echo $$ $! > ` + pids + `; wait; sleep 60`
	tr, err := startStdio([]string{"sh", "-c", script}, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []int
	for deadline := time.Now().Add(10 * time.Second); len(recorded) < 2 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		recorded = recorded[:0]
		data, _ := os.ReadFile(pids)
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				recorded = append(recorded, pid)
			}
		}
	}
	if len(recorded) != 2 {
		_ = signalGroup(tr.cmd.Process, syscall.SIGKILL)
		t.Fatalf("the child recorded %v", recorded)
	}
	if recorded[0] != tr.pid() {
		t.Errorf("the child says it is %d, the transport started %d", recorded[0], tr.pid())
	}
	if pgid, err := syscall.Getpgid(recorded[1]); err != nil || pgid != tr.pid() {
		t.Errorf("the grandchild's process group is %d (%v), want the child's own, %d", pgid, err, tr.pid())
	}
	start := time.Now()
	closed := make(chan struct{})
	go func() { _ = tr.close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		_ = signalGroup(tr.cmd.Process, syscall.SIGKILL)
		t.Fatal("close never returned")
	}
	if took := time.Since(start); took > 3500*time.Millisecond {
		t.Errorf("close took %v", took)
	}
	for _, pid := range recorded {
		deadline := time.Now().Add(2 * time.Second)
		for syscall.Kill(pid, 0) == nil && !zombie(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) && !zombie(pid) {
			t.Errorf("process %d outlived close", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// zombie reports whether pid has exited and waits for its parent (here:
// init) to reap it. Where there is no /proc it says no.
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}
