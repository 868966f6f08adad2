package ab

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// TestAttemptStartsTogether: both sides of a round run at once and start
// their schedules at one instant, after the later of them opened its
// sessions (here 80 ms after the other); each side's samples are placed
// from that instant.
func TestAttemptStartsTogether(t *testing.T) {
	p := plan(t, 1)
	var mu sync.Mutex
	starts := map[Side]time.Time{}
	arrived := map[Side]time.Time{}
	run := func(ctx context.Context, sr SideRun) (*results.Result, error) {
		if sr.Side == New {
			time.Sleep(80 * time.Millisecond) // slower to connect
		}
		mu.Lock()
		arrived[sr.Side] = time.Now()
		mu.Unlock()
		at, err := sr.Together(ctx)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		starts[sr.Side] = at
		mu.Unlock()
		return fixture(t), nil
	}
	got := p.attempt(context.Background(), 1, 1, Order(1), run)
	if got[Base].err != nil || got[New].err != nil {
		t.Fatalf("errors %v %v", got[Base].err, got[New].err)
	}
	if !starts[Base].Equal(starts[New]) || starts[Base].Before(arrived[New]) {
		t.Errorf("starts %v and %v; the later side arrived at %v", starts[Base], starts[New], arrived[New])
	}
	if s := got[Base].samples; s == nil || !s.start.Equal(starts[Base]) {
		t.Errorf("samples placed from %v, want %v", s.start, starts[Base])
	}
}

// TestAttemptSideThatCannotConnect: a side that ends before its schedule
// began (its target refused it) releases the other, which would otherwise
// wait for ever; the round ends with the error, both runs excluded.
func TestAttemptSideThatCannotConnect(t *testing.T) {
	refused := errors.New("connection refused")
	run := func(ctx context.Context, sr SideRun) (*results.Result, error) {
		if sr.Side == New {
			return nil, refused
		}
		if _, err := sr.Together(ctx); err != nil {
			return nil, err
		}
		return fixture(t), nil
	}
	done := make(chan struct{})
	var o *Experiment
	var err error
	go func() {
		defer close(done)
		o, err = Run(context.Background(), plan(t, 2), run)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the base side waited for ever for a side that could not connect")
	}
	if !errors.Is(err, refused) || len(o.Base) != 0 || !strings.Contains(err.Error(), "round 1, base: the new side ended before its schedule began") {
		t.Errorf("err %v, kept %d", err, len(o.Base))
	}
}

// TestLookAlphaPerGate: the gate's 5% against a false alarm is shared
// among its bounds and looks — at 6, 12, 24 and 48 rounds by default: two
// bounds test each at 10%/8, one bound at 10%/4 — and the intervals a
// bound is held by at 10%/4, the looks' share alone.
func TestLookAlphaPerGate(t *testing.T) {
	bs, err := bounds.ParseBounds("read.p50=+10%,service.p50=+10%")
	if err != nil {
		t.Fatal(err)
	}
	p := Design{Rounds: DefaultRounds, MaxRounds: DefaultMaxRounds, Judging: Judging{Bounds: bs}}
	if got := p.LookAlpha(); got != 0.1/8 || !slices.Equal(p.looksAt(), []int{6, 12, 24, 48}) {
		t.Errorf("two bounds, looks at %v: %v, want %v", p.looksAt(), got, 0.1/8)
	}
	if got := p.HoldAlpha(); got != 0.1/4 {
		t.Errorf("hold level %v, want %v", got, 0.1/4)
	}
	p.Judging.Bounds = bs[:1]
	if got := p.LookAlpha(); got != compare.GateLevel(1, 4) || got != 0.1/4 {
		t.Errorf("one bound: %v", got)
	}
	for _, c := range []struct {
		rounds, most int
		at           []int
	}{{6, 16, []int{6, 12, 16}}, {4, 6, []int{4, 6}}, {6, 6, []int{6}}, {1, 5, []int{1, 2, 4, 5}}} {
		p := Design{Rounds: c.rounds, MaxRounds: c.most}
		if got := p.looksAt(); !slices.Equal(got, c.at) || p.Looks() != len(c.at) || !p.due(c.at[len(c.at)-1]) || p.due(c.at[0]+1) && !slices.Contains(c.at, c.at[0]+1) {
			t.Errorf("rounds %d to %d: looks at %v, want %v", c.rounds, c.most, got, c.at)
		}
	}
}
