//go:build linux

package client

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestStdioCloseEndsWhatLeftTheGroup: a stdio server whose child leaves
// its process group — setsid, or a daemon that forks twice and is
// re-parented away from the server — is ended with the session, though
// the group's signal does not reach it: the README says nothing a stdio
// server started outlives readbench. Before, both sleeps ran on.
func TestStdioCloseEndsWhatLeftTheGroup(t *testing.T) {
	for _, c := range []struct {
		name, spawn string // spawn writes the escaped process's pid to $PIDS
	}{
		{"setsid child", `setsid sleep 60 & echo $! > "$PIDS"`},
		{"daemon forked twice", `setsid sh -c 'sleep 60 & echo $! > "$PIDS"' &`},
		// Without the mark: neither the group nor the environment finds
		// it; the tree taken before stdin closes does (issue 47, item 21).
		{"setsid child that cleared its environment", `setsid env -i sleep 60 & echo $! > "$PIDS"`},
		{"the child of such a child", `setsid env -i PIDS="$PIDS" sh -c 'sleep 60 & echo $! > "$PIDS"; wait' &`},
	} {
		t.Run(c.name, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			t.Setenv("PIDS", pids)
			// The server: starts the process that escapes, then reads
			// stdin to its end as a stdio server does, and exits.
			tr, err := startStdio([]string{"sh", "-c", c.spawn + "\ncat > /dev/null"}, nil, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			var pid int
			for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				data, _ := os.ReadFile(pids)
				pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
			}
			if pid == 0 {
				_ = tr.close()
				t.Fatal("the server never said which process it started")
			}
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			// Wait until it runs sleep, in a session of its own.
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); strings.TrimSpace(string(comm)) == "sleep" {
					break
				}
			}
			if sid, err := unix.Getsid(pid); err != nil || sid == tr.pid() {
				t.Fatalf("process %d is in session %d (%v): it did not leave the server's", pid, sid, err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			closed := make(chan struct{})
			go func() { _ = tr.close(); close(closed) }()
			select {
			case <-closed:
			case <-ctx.Done():
				t.Fatal("close never returned")
			}
			for syscall.Kill(pid, 0) == nil && !zombie(pid) && ctx.Err() == nil {
				time.Sleep(10 * time.Millisecond)
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) && !zombie(pid) {
				t.Errorf("process %d, which left the server's group, outlived the session", pid)
			}
		})
	}
}

// TestHasEnvEntry: the mark is matched whole, never as a prefix or inside
// another entry.
func TestHasEnvEntry(t *testing.T) {
	for _, c := range []struct {
		env  string
		want bool
	}{
		{"A=1\x00M=x\x00", true},
		{"M=x", true},
		{"M=xy\x00", false},
		{"XM=x\x00", false},
		{"", false},
	} {
		if got := hasEnvEntry([]byte(c.env), []byte("M=x")); got != c.want {
			t.Errorf("hasEnvEntry(%q) = %v, want %v", c.env, got, c.want)
		}
	}
}
