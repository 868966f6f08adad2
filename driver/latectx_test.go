package driver

import (
	"context"
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestLateContextIsMadeOncePerPhase: the turns of a phase share one
// context (no allocation per turn), another phase or run context gets its
// own, and each follows its parent.
func TestLateContextIsMadeOncePerPhase(t *testing.T) {
	var r runner
	warm, measured := stats.NewRecorder(nil), stats.NewRecorder(nil)
	ctx, cancel := context.WithCancel(context.Background())
	a := r.lateContext(ctx, warm)
	if b := r.lateContext(ctx, warm); b != a {
		t.Fatal("a second turn of the phase got a new context")
	}
	m := r.lateContext(ctx, measured)
	if m == a {
		t.Fatal("the measured phase shares the warmup's context")
	}
	if n := testing.AllocsPerRun(100, func() { r.lateContext(ctx, measured) }); n != 0 {
		t.Fatalf("%v allocations per turn", n)
	}
	other := r.lateContext(context.Background(), measured)
	if other == m {
		t.Fatal("another run context shares the context")
	}
	cancel()
	if a.Err() == nil || m.Err() == nil || other.Err() != nil {
		t.Fatal("a late context does not follow its parent")
	}
}
