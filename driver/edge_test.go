package driver

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// countingServer serves the SDK peer with reads taking delay and counts
// the reads it received and the most it had in flight at once.
type countingServer struct {
	reads, inFlight, peak atomic.Int64
}

func (c *countingServer) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Method") == "resources/read" {
			c.reads.Add(1)
			n := c.inFlight.Add(1)
			defer c.inFlight.Add(-1)
			for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
			}
		}
		h.ServeHTTP(w, r)
	})
}

// edgeRunner is a runner connected to the SDK peer over stateless HTTP,
// ready to launch turns by hand: one attachment a turn.
func edgeRunner(t *testing.T, delay time.Duration, load string) (*runner, *countingServer) {
	t.Helper()
	cs := &countingServer{}
	srv := peertest.SDKServer(delay)
	hs := peertest.ServeLocal(t, cs.wrap(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})))
	w, err := yamlfile.Parse("edge.yaml", []byte(fmt.Sprintf(`
name: edge
target: %q
load: %s
turn: {attachments: 1, read_timeout: 10s, deadline: 2s}
mix:
  - {class: md, uri: "docs://onboarding/engineering"}
`, hs.URL+"/mcp", load)))
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{w: w, measured: stats.NewRecorder([]stats.ClassInfo{{Name: "md"}}), warmup: stats.NewRecorder(nil), begun: make(chan struct{}, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if r.conns, err = r.dial(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAll(r.conns) })
	if r.plan, err = workload.NewSamplingWith(w, workload.SamplingOptions{}); err != nil {
		t.Fatal(err)
	}
	return r, cs
}

// TestMaxInFlightIsAHardCap: a catch-up burst of ten turns launched back
// to back with max_in_flight 2 starts exactly two and drops eight: a turn
// counts in flight before its goroutine starts (it used to count inside
// it, so a burst launched past the cap before any of it counted).
func TestMaxInFlightIsAHardCap(t *testing.T) {
	r, cs := edgeRunner(t, 300*time.Millisecond, "{rate: 10/s, duration: 1s, max_in_flight: 2}")
	ctx := context.Background()
	now := time.Now()
	for i := range 10 {
		r.launch(ctx, uint64(i), now, false)
	}
	r.turns.Wait()
	run := r.measured.Phase()
	if p := cs.peak.Load(); p > 2 || cs.reads.Load() != 2 {
		t.Errorf("the server saw %d reads, %d at once: max_in_flight 2 must cap both", cs.reads.Load(), p)
	}
	if run.TurnEndCount(stats.TurnDropped) != 8 || run.Outcomes[stats.Dropped] != 8 || run.Turns != 10 {
		t.Errorf("turns %d, dropped turns %d, dropped reads %d: want 10, 8, 8", run.Turns, run.TurnEndCount(stats.TurnDropped), run.Outcomes[stats.Dropped])
	}
	if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Error(err)
	}
}

// TestGeneratorPastTheDeadlineDrops: a turn the generator reaches after
// its deadline has passed is dropped — its reads are never sent, so they
// are neither cancelled nor timed — and counts how late it was in the lag
// (the generator's lateness, at least the deadline); a turn reached in
// time records its scheduling lag. The deadline runs from the intended
// start, the read timeout from the send.
func TestGeneratorPastTheDeadlineDrops(t *testing.T) {
	r, cs := edgeRunner(t, time.Millisecond, "{rate: 10/s, duration: 1s}")
	ctx := context.Background()
	late := time.Now().Add(-3 * time.Second) // 3 s behind a 2 s deadline
	r.inFlight.Add(1)
	r.turns.Add(1)
	r.runTurn(ctx, 0, late, false)
	behind := time.Now().Add(-500 * time.Millisecond) // behind, within the deadline
	r.inFlight.Add(1)
	r.turns.Add(1)
	r.runTurn(ctx, 1, behind, false)
	run := r.measured.Phase()
	if cs.reads.Load() != 1 || run.Outcomes[stats.Dropped] != 1 || run.Outcomes[stats.Cancelled] != 0 || run.Outcomes[stats.OK] != 1 {
		t.Errorf("server reads %d, outcomes %v: the late turn must be dropped, unsent", cs.reads.Load(), run.Outcomes.Map())
	}
	if run.TurnEndCount(stats.TurnDropped) != 1 || run.TurnLowerBounds != 1 {
		t.Errorf("turn ends %v, lower bounds %d", run.TurnEnds, run.TurnLowerBounds)
	}
	if run.Lag.Count() != 2 || run.Lag.Max() < 3*time.Second || run.Lag.Quantile(50) < 500*time.Millisecond || run.Lag.Quantile(50) >= 2*time.Second {
		t.Errorf("lag: %d values, %v to %v: want the sent read's 500 ms and the dropped one's 3 s", run.Lag.Count(), run.Lag.Quantile(50), run.Lag.Max())
	}
	if r.inFlight.Load() != 0 {
		t.Errorf("%d turns still counted in flight", r.inFlight.Load())
	}
}

// TestLateAnswersObservable: Streamable HTTP closes a cancelled read's
// stream, so late answers cannot be seen there; stdio can see them.
func TestLateAnswersObservable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, c := range []struct {
		target targets.Target
		want   bool
	}{
		{targets.Target{Kind: targets.HTTP, Address: peertest.StartSDKHTTP(t, &mcp.StreamableHTTPOptions{Stateless: true})}, false},
		{targets.Target{Kind: targets.Stdio, Argv: peertest.Command(t, peertest.SDKStdio)}, true},
	} {
		s, _, err := client.Connect(ctx, client.Dial{Target: c.target})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.LateAnswersObservable(); got != c.want {
			t.Errorf("%s: observable %v, want %v", c.target.Kind, got, c.want)
		}
		s.Close()
	}
}
