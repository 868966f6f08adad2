package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// killChildren SIGKILLs every child process of readbench, each with its
// process group when it leads one (stdio servers do: client starts them
// so), so that whatever they started ends too. It is the last resort of
// an exit that cannot wait for the sessions to close; it reads /proc.
func killChildren() {
	self := os.Getpid()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, pgid, ok := procParent(pid)
		if !ok || ppid != self {
			continue
		}
		if pgid == pid {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// procParent reads a process's parent and process group from
// /proc/PID/stat ("pid (comm) state ppid pgrp ...", comm may hold
// spaces and parentheses).
func procParent(pid int) (ppid, pgid int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 3 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	return ppid, pgid, err1 == nil && err2 == nil
}
