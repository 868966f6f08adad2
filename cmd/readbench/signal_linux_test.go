package main

import (
	"syscall"
	"testing"
	"time"
)

// TestKilledReadbenchTakesItsServerAlong: readbench killed outright
// (SIGKILL: nothing of it runs) still leaves no stdio server behind: on
// Linux the kernel kills the server when its parent dies (the server's
// own children are not its parent's to end: this one is killed by the
// test's cleanup). Linux only: elsewhere there is no parent-death signal,
// and a server learns of readbench's end from its stdin closing.
func TestKilledReadbenchTakesItsServerAlong(t *testing.T) {
	r := startInterruptible(t, stuckPeer)
	r.waitReady()
	r.signal(syscall.SIGKILL)
	r.waitExit(time.Second)
	pids := r.peerPIDs()
	if len(pids) != 2 {
		t.Fatalf("the peer recorded %v", pids)
	}
	if !poll(2*time.Second, func() bool { return processGone(pids[0]) }) {
		t.Errorf("the server (%d), deaf to its stdin closing and to SIGTERM, outlived a killed readbench", pids[0])
	}
}
