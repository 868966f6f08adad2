//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

// The stdio peers of these tests (the test binary re-executed, see
// peertest.Run). Each writes its pid, and its child's, to the file
// peerPIDsEnv names, and creates the file peerReadyEnv names when the
// moment to interrupt has come (readyReads reads in flight, or its start
// when it never reads).
const (
	slowPeer    = "signal-slow"    // the SDK's server, every read 1 s (cancellable)
	stuckPeer   = "signal-stuck"   // answers the handshake, never a read; ignores SIGTERM and stdin closing
	silentPeer  = "signal-silent"  // never reads, never answers; ignores SIGTERM
	sleeperPeer = "signal-sleeper" // the child the stuck and silent peers start: ignores SIGTERM, sleeps

	peerPIDsEnv  = "READBENCH_TEST_PIDS"
	peerReadyEnv = "READBENCH_TEST_READY"

	// peerLife bounds every peer: whatever a failing test leaves behind
	// ends by itself.
	peerLife = time.Minute

	// readyReads is how many reads a reading peer has been sent when it
	// says the moment to interrupt has come: two turns of two
	// attachments, so that the interrupt cuts several reads in flight.
	readyReads = 4
)

// signalPeers are the peer modes for TestMain.
func signalPeers() map[string]func() int {
	return map[string]func() int{
		slowPeer:    func() int { notePIDs(os.Getpid()); return servePeerSDK(time.Second, true) },
		stuckPeer:   func() int { stubborn(); return servePeerSDK(peerLife, false) },
		silentPeer:  func() int { stubborn(); markReady(); time.Sleep(peerLife); return 0 },
		sleeperPeer: func() int { signal.Ignore(syscall.SIGTERM); time.Sleep(peerLife); return 0 },
	}
}

// stubborn makes this peer ignore SIGTERM, records its pid and starts a
// child in its process group that ignores SIGTERM too.
func stubborn() {
	signal.Ignore(syscall.SIGTERM)
	child := exec.Command(os.Args[0])
	child.Env = append(os.Environ(), peertest.Env+"="+sleeperPeer)
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "start the sleeper:", err)
		return
	}
	notePIDs(os.Getpid(), child.Process.Pid)
}

// servePeerSDK serves one resource over stdio with the official SDK; a
// read takes delay, cancellable when honour is set. Once stdin closes it
// returns, unless it is deaf (honour false): then it sleeps on, as a
// server that ignores its stdin closing does.
func servePeerSDK(delay time.Duration, honour bool) int {
	s := mcp.NewServer(&mcp.Implementation{Name: "signal-peer", Version: "1.2.3"}, nil)
	var reads atomic.Int64 // the SDK runs each read's handler on its own goroutine
	s.AddResource(&mcp.Resource{URI: "slow://doc", MIMEType: "text/plain", Name: "doc"},
		func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			if reads.Add(1) == readyReads {
				markReady()
			}
			done := ctx.Done()
			if !honour {
				done = nil
			}
			select {
			case <-time.After(delay):
			case <-done:
				return nil, ctx.Err()
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "slow://doc", MIMEType: "text/plain", Text: "slow"}}}, nil
		})
	ctx, cancel := context.WithTimeout(context.Background(), peerLife)
	defer cancel()
	_ = s.Run(ctx, &mcp.StdioTransport{})
	if !honour {
		<-ctx.Done()
	}
	return 0
}

// markReady creates the file peerReadyEnv names (once is enough).
func markReady() {
	if p := os.Getenv(peerReadyEnv); p != "" {
		_ = os.WriteFile(p, nil, 0o644)
	}
}

// notePIDs appends pids to the file peerPIDsEnv names.
func notePIDs(pids ...int) {
	p := os.Getenv(peerPIDsEnv)
	if p == "" {
		return
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	for _, pid := range pids {
		fmt.Fprintln(f, pid)
	}
}
