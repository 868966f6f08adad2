package driver

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/targets"
)

// A run's connections: opened in parallel before the schedule starts
// (each settling its own era), closed in parallel after it, and the
// server processes behind them whose cost the run samples.

// dial opens every session in parallel and settles the era of each.
// Each step is told to Options.Setup with the sessions open so far.
func (r *runner) dial(ctx context.Context) ([]client.Conn, error) {
	n := max(r.w.Sessions, 1)
	sessions := make([]client.Conn, n)
	errs := make([]error, n)
	var opened atomic.Int64
	step := func(doing string) {
		r.setup.say(SetupStep{Stage: StageConnect, Doing: doing, Done: int(opened.Load()), Of: n})
	}
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sessions[i], errs[i] = r.open(ctx, step)
			if errs[i] == nil {
				opened.Add(1)
				step("open")
			}
		}()
	}
	wg.Wait()
	if err := joinDistinct(errs); err != nil {
		closeAll(sessions)
		return nil, fmt.Errorf("connect to %s: %w", r.w.Target.Redacted(), err)
	}
	return sessions, nil
}

// closeAll closes sessions in parallel: a stdio child may take a while to
// exit, and children do not wait for each other.
func closeAll(sessions []client.Conn) {
	var wg sync.WaitGroup
	for _, s := range sessions {
		if s != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = s.Close()
			}()
		}
	}
	wg.Wait()
}

func (r *runner) open(ctx context.Context, step func(string)) (client.Conn, error) {
	limit, setBy := r.o.HandshakeLimit()
	s, handshake, err := client.Open(ctx, client.Dial{
		Target: r.w.Target, Protocol: r.w.Protocol, Headers: r.w.Headers, Auth: r.o.Auth,
		Embedded: r.o.EmbeddedCommand, Stderr: r.o.Stderr, Client: r.o.Client,
		Aim:       targets.Aim{AllowHosts: r.w.AllowHosts, InsecureCredentials: r.w.InsecureCredentials},
		MaxAnswer: r.w.Turn.MaxAnswer, HandshakeTimeout: limit, HandshakeSetBy: setBy, Step: step,
	})
	if err != nil {
		return nil, err
	}
	if _, first, ok := s.Process(); ok {
		r.cold.Session(first, handshake)
	}
	return s, nil
}

// costPIDs are the processes whose cost a run samples: those behind its
// stdio sessions, and serverPID (--server-pid, 0: none) for a server
// started elsewhere on this machine.
func costPIDs(sessions []client.Conn, serverPID int) []int {
	var pids []int
	for _, s := range sessions {
		if pid, _, ok := s.Process(); ok {
			pids = append(pids, pid)
		}
	}
	if serverPID > 0 {
		pids = append(pids, serverPID)
	}
	return pids
}
