package client

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strconv"
	"syscall"
)

// A stdio server's descendant that both left its process group (setsid)
// and cleared its environment (env -i, a daemon library that resets it)
// carries neither the group nor the mark (signalMarked). While its parent
// lives, /proc still ties it to the server: each process names its parent.
// So the session, before it closes the server's stdin (on which most
// servers exit, and their orphans are re-parented away), takes the tree of
// the server's descendants and ends it with the group. A process is told
// by its pid and its start time together, so that a pid the kernel gave
// to another process since is never signalled.

// proc is one process: its pid and its start time (in clock ticks since
// boot), which together name it across pid reuse.
type proc struct {
	pid   int
	start uint64
}

// descendants lists every process below root in the parent links /proc
// gives now (children, their children, …), root excluded. A process of
// another user is listed too (/proc/PID/stat is world-readable) but a
// signal to it fails, as it should. It reads /proc once per close, never
// per read.
func descendants(root int) []proc {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil
	}
	children := map[int][]proc{}
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if ppid, start, ok := statOf(pid); ok {
			children[ppid] = append(children[ppid], proc{pid, start})
		}
	}
	var out []proc
	for todo := slices.Clone(children[root]); len(todo) > 0; {
		p := todo[len(todo)-1]
		todo = append(todo[:len(todo)-1], children[p.pid]...)
		out = append(out, p)
	}
	return out
}

// statOf reads a process's parent and start time from /proc/PID/stat.
func statOf(pid int) (ppid int, start uint64, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	return parseStat(data)
}

// parseStat reads the parent (field 4) and the start time (field 22) of a
// /proc/PID/stat line. The command name (field 2) is in parentheses and
// may hold spaces and parentheses itself, so the fields are counted from
// the last ')'.
func parseStat(data []byte) (ppid int, start uint64, ok bool) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(data[i+1:]) // f[0] is field 3, the state
	if len(f) < 20 {
		return 0, 0, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return 0, 0, false
	}
	start, err = strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return ppid, start, true
}

// signalProcs sends sig to each process still running under the same pid
// and start time; one that has ended, or whose pid now names another
// process, is skipped.
func signalProcs(ps []proc, sig syscall.Signal) error {
	var errs []error
	for _, p := range ps {
		if _, start, ok := statOf(p.pid); !ok || start != p.start {
			continue
		}
		if err := syscall.Kill(p.pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
