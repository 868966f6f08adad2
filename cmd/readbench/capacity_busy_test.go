package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/internal/testproc"
	"github.com/readbench/readbench/results"
)

// sdkKneeWorkload reads the SDK peer's 3 KB document once a turn.
const sdkKneeWorkload = `name: sdk-knee
sessions: 4
load: {rate: 50/s}
turn: {attachments: 1, read_timeout: 5s, deadline: 3s}
mix:
  - {class: doc, weight: 1, uris: ["docs://unicode"]}
`

// span is where a search puts the server's limit: at least lo, below hi
// (+Inf when not known).
func span(r capacity.RateFinding) (lo, hi float64) {
	if in := r.Interval; in != nil {
		hi = math.Inf(1)
		if in.High > 0 {
			hi = in.High
		}
		return in.Low, hi
	}
	hi = r.FirstBadRate
	if hi == 0 {
		hi = math.Inf(1)
	}
	if r.MaxSustainableRate == nil { // the first step broke the SLO: nothing known to pass
		return 0, hi
	}
	return *r.MaxSustainableRate, hi
}

// hogCores keeps a CPU hog on every core for at most d (a shell loop per
// core, the busy CI runner of issue 33), ended when the test ends.
func hogCores(t *testing.T, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	var cmds []*exec.Cmd
	for range runtime.NumCPU() {
		c := testproc.Own(t, exec.CommandContext(ctx, "sh", "-c", "while :; do :; done"))
		if err := c.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	t.Cleanup(func() {
		cancel()
		for _, c := range cmds {
			_ = c.Wait()
		}
	})
}

// TestCapacityBusyMachineAgreesWithQuiet: against the official Go SDK's
// server (each read 5 ms, two at once: ~390 reads/s), a search with a CPU
// hog on every core answers within the quiet search's interval, or says
// it could not tell (an interval, the rates it could not measure named),
// and never suggests more shards for a busy machine: the half-truth of
// issue 33 (200/s, "run more shards") is gone.
func TestCapacityBusyMachineAgreesWithQuiet(t *testing.T) {
	dir := t.TempDir()
	w := writeWorkload(t, dir, sdkKneeWorkload)
	srv := peertest.SDKServerWorkers(5*time.Millisecond, 2)
	url := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})).URL
	search := func(out string) (capacity.RateFinding, string) {
		stdout, stderr, code := readbench(t, dir, "capacity", w, "--target", url, "--slo", "read.p99<50ms,errors<1%",
			"--from", "100/s", "--to", "800/s", "--step-duration", "1s", "--step-warmup", "300ms", "--refine", "2",
			"--hold", "0", "--format", "json", "--out", out, "-q", "--fail-on-unknown=false") // an interval is an answer here
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var rep capacity.RateFinding
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		return rep, stdout
	}
	machine := watchMachine()
	quiet, qout := search("quiet")
	qlo, qhi := span(quiet)
	if qlo <= 0 {
		// The machine was busy before the hog (other work on it): there is
		// no quiet search to agree with, and readbench's answer must say
		// the limit it met was the machine's or the generator's.
		if !machine.Busy() || quiet.LimitedBy != capacity.LimitMachine && quiet.LimitedBy != capacity.LimitGenerator {
			t.Fatalf("the quiet search found nothing, limited by %s (%s): %s", quiet.LimitedBy, machine, quiet.Conclusion)
		}
		if quiet.Interval == nil || len(quiet.Interval.Unmeasured) == 0 || quiet.LimitedBy == capacity.LimitMachine && strings.Contains(qout, "--segment") {
			t.Fatalf("limited by %s without the interval and the rates not measured, or suggesting shards for a busy machine (%s):\n%s", quiet.LimitedBy, machine, qout)
		}
		// The honest answer, asserted: nothing quiet to compare the busy search with.
		t.Logf("no quiet search to compare with: the machine was busy before the hog (%s), and readbench said so: %s", machine, quiet.Conclusion)
		return
	}
	hogCores(t, 40*time.Second)
	busy, out := search("busy")
	lo, hi := span(busy)
	t.Logf("quiet: %s [%v, %v); busy: %s [%v, %v)", quiet.LimitedBy, qlo, qhi, busy.LimitedBy, lo, hi)
	for _, rep := range []capacity.RateFinding{quiet, busy} {
		for _, s := range rep.Steps {
			p := "-"
			if r, err := results.Load(filepath.Join(dir, s.File)); err == nil && r.Host.CPUPressure != nil {
				p = fmt.Sprintf("%.2f", *r.Host.CPUPressure)
			}
			t.Logf("%s %v/s: pass %v, cpu_pressure %s, read p50 %v p99 %v, lag p99 %v; %s", s.Phase, s.Rate, s.Pass, p, s.Read.P50Ms, s.Read.P99Ms, s.LagP99Ms, s.Reason)
		}
	}
	// The two agree when their intervals meet: the busy search claims
	// no more than the quiet one saw fail, and charges the server with no
	// failure more than one step (its resolution) below what the quiet one
	// held. One step: the hog slows the server too, on the same cores, and
	// a step whose CPU pressure stayed under the band is charged to the
	// server (1 search in 4 here found [300, 350) against quiet [350, 400)).
	if lo >= qhi || hi+busy.Resolution <= qlo {
		t.Errorf("with a hog per core the limit is in [%v, %v) (%s), quietly in [%v, %v) (%s):\n%s", lo, hi, busy.LimitedBy, qlo, qhi, machine, out)
	}
	if busy.LimitedBy == capacity.LimitMachine || busy.LimitedBy == capacity.LimitGenerator {
		if busy.Interval == nil || len(busy.Interval.Unmeasured) == 0 {
			t.Errorf("limited by %s without the interval and the rates not measured:\n%s", busy.LimitedBy, out)
		}
	}
	if busy.LimitedBy == capacity.LimitMachine && strings.Contains(out, "--segment") {
		t.Errorf("a busy machine suggests more shards:\n%s", out)
	}
}
