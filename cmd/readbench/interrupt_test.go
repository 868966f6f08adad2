package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeProcess records what the interrupt handler did to the process.
type fakeProcess struct {
	mu     sync.Mutex
	stderr bytes.Buffer
	killed int
	exits  chan int
}

func (p *fakeProcess) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.Write(b)
}

func (p *fakeProcess) said() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

func (p *fakeProcess) kills() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.killed
}

// handler starts watch on a fake process with short bounds; it returns
// the signal channel, done, the context the handler cancels and the fake.
func handler(t *testing.T) (chan os.Signal, chan struct{}, context.Context, *fakeProcess) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	t.Cleanup(func() { cancel(nil) })
	p := &fakeProcess{exits: make(chan int, 1)}
	h := &interrupts{cancel: cancel, stderr: p, exit: func(code int) { p.exits <- code },
		killChildren: func() { p.mu.Lock(); p.killed++; p.mu.Unlock() },
		stopWithin:   300 * time.Millisecond, secondGrace: 100 * time.Millisecond}
	sigs, done := make(chan os.Signal, 2), make(chan struct{})
	finished := make(chan struct{})
	go func() { defer close(finished); h.watch(sigs, done) }()
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			close(done)
		}
		select {
		case <-finished:
		case <-time.After(5 * time.Second):
			t.Error("the handler never returned")
		}
	})
	return sigs, done, ctx, p
}

func TestFirstInterruptCancelsWithItsCause(t *testing.T) {
	sigs, done, ctx, p := handler(t)
	sigs <- os.Interrupt
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first interrupt did not cancel the command")
	}
	if !interrupted(ctx) || !strings.Contains(p.said(), "interrupt again to quit") {
		t.Errorf("cause %v, said %q", context.Cause(ctx), p.said())
	}
	close(done) // the command saved its result and returned in time
	select {
	case code := <-p.exits:
		t.Errorf("exit(%d) although the command returned in time", code)
	case <-time.After(500 * time.Millisecond):
	}
	if p.kills() != 0 {
		t.Error("children killed although the command returned in time")
	}
}

func TestInterruptedCommandThatHangsIsEnded(t *testing.T) {
	sigs, _, _, p := handler(t)
	start := time.Now()
	sigs <- os.Interrupt
	select {
	case code := <-p.exits:
		if code != exitInterrupted || p.kills() != 1 || time.Since(start) < 300*time.Millisecond {
			t.Errorf("exit %d after %v, %d kills", code, time.Since(start), p.kills())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a command that never returned was not ended")
	}
	if !strings.Contains(p.said(), "still not stopped") {
		t.Errorf("said %q", p.said())
	}
}

func TestSecondInterruptKillsAndQuits(t *testing.T) {
	sigs, _, _, p := handler(t)
	sigs <- os.Interrupt
	time.Sleep(50 * time.Millisecond)
	second := time.Now()
	sigs <- os.Interrupt
	select {
	case code := <-p.exits:
		if took := time.Since(second); code != exitInterrupted || p.kills() != 1 || took > 250*time.Millisecond {
			t.Errorf("exit %d %v after the second interrupt, %d kills", code, took, p.kills())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second interrupt did not quit")
	}
	if !strings.Contains(p.said(), "interrupted again") {
		t.Errorf("said %q", p.said())
	}
}

func TestSecondInterruptLetsTheSaveFinish(t *testing.T) {
	sigs, done, _, p := handler(t)
	sigs <- os.Interrupt
	time.Sleep(50 * time.Millisecond)
	sigs <- os.Interrupt
	time.Sleep(20 * time.Millisecond)
	close(done) // the save finished within the grace: main exits, not the handler
	select {
	case code := <-p.exits:
		t.Errorf("exit(%d) although the command returned within the grace", code)
	case <-time.After(300 * time.Millisecond):
	}
	if p.kills() != 1 {
		t.Errorf("%d kills", p.kills())
	}
}
