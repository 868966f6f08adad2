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
	mu       sync.Mutex
	stderr   bytes.Buffer
	killed   int
	exits    chan int
	finished chan struct{} // closed when the handler returned
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
	p := &fakeProcess{exits: make(chan int, 1), finished: make(chan struct{})}
	h := &interrupts{cancel: cancel, stderr: p, exit: func(code int) { p.exits <- code },
		killChildren: func() { p.mu.Lock(); p.killed++; p.mu.Unlock() },
		stopWithin:   300 * time.Millisecond, secondGrace: 100 * time.Millisecond}
	sigs, done := make(chan os.Signal, 2), make(chan struct{})
	go func() { defer close(p.finished); h.watch(sigs, done) }()
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			close(done)
		}
		select {
		case <-p.finished:
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
	p.returned(t)
	select {
	case code := <-p.exits:
		t.Errorf("exit(%d) although the command returned in time", code)
	default:
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
	sigs, _, ctx, p := handler(t)
	sigs <- os.Interrupt
	cancelled(t, ctx) // the first interrupt was handled
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
	sigs, done, ctx, p := handler(t)
	sigs <- os.Interrupt
	cancelled(t, ctx)
	sigs <- os.Interrupt
	eventually(t, 5*time.Second, "the second interrupt kills the children", func() bool { return p.kills() == 1 })
	close(done) // the save finished within the grace: main exits, not the handler
	p.returned(t)
	select {
	case code := <-p.exits:
		t.Errorf("exit(%d) although the command returned within the grace", code)
	default:
	}
	if p.kills() != 1 {
		t.Errorf("%d kills", p.kills())
	}
}

// cancelled waits for the handler to cancel the command's context.
func cancelled(t *testing.T, ctx context.Context) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first interrupt did not cancel the command")
	}
}

// returned waits for the handler to return: whatever it was going to do
// to the process, it has done.
func (p *fakeProcess) returned(t *testing.T) {
	t.Helper()
	select {
	case <-p.finished:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler did not return once the command had")
	}
}
