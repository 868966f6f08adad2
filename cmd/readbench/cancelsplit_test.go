package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
)

// busyMachine keeps every core busy with CPU-burning child processes
// until the test ends (and at most a minute): the cancellation verdicts
// must hold on a loaded machine, where the server and readbench are both
// scheduled late.
func busyMachine(t *testing.T) {
	t.Helper()
	ctx, stop := context.WithTimeout(context.Background(), time.Minute)
	var cmds []*exec.Cmd
	for range runtime.NumCPU() {
		c := testproc.Own(t, exec.CommandContext(ctx, "yes")) // stdout is the null device
		if err := c.Start(); err != nil {
			needs.Missing(t, "a CPU burner, `yes` ("+err.Error()+")", "apt-get install coreutils")
		}
		cmds = append(cmds, c)
	}
	t.Cleanup(func() {
		stop()
		for _, c := range cmds {
			_ = c.Wait()
		}
	})
}

// cancelSplit is the part of the result the split is read from.
type cancelSplit struct {
	Cancelled    int64    `json:"cancelled"`
	LateAnswers  *int64   `json:"late_answers"`
	WastedBytes  *int64   `json:"wasted_bytes"`
	Ignored      *int64   `json:"ignored"`
	IgnoredBytes *int64   `json:"ignored_bytes"`
	AllowanceMs  *float64 `json:"allowance_ms"`
	AllowancesMs struct {
		Count int64   `json:"count"`
		P50Ms float64 `json:"p50_ms"`
		P99Ms float64 `json:"p99_ms"`
		MaxMs float64 `json:"max_ms"`
	} `json:"allowances_ms"`
	CancelToLate struct {
		P50Ms float64 `json:"p50_ms"`
		MaxMs float64 `json:"max_ms"`
	} `json:"cancel_to_late_ms"`
}

func runCancelSplit(t *testing.T, body string) (cancelSplit, string) {
	t.Helper()
	dir := t.TempDir()
	stdout, stderr, _ := readbench(t, dir, "run", writeWorkload(t, dir, body), "--full", "--out", "r.json") // the late answers are detail
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout, stderr)
	}
	var doc struct {
		Cancellation cancelSplit `json:"cancellation"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Cancellation
	if c.LateAnswers == nil || c.Ignored == nil || c.IgnoredBytes == nil {
		t.Fatalf("over stdio late answers are observable: want late_answers and ignored counted, got %+v", c)
	}
	return c, stdout
}

// TestCancelSplitOverStdio: against the simulated server over stdio, on a
// machine made busy on purpose, every answer after the cancel is counted
// (bytes wasted), but only a cancel the server had time to act on counts
// as ignored. A server that honours cancellation gets 0 ignored in each
// of five runs (up to ten, until an answer has crossed a cancel): its delay straddles the deadline (80–120 ms against
// 100 ms), so some answers are on their way when the cancel is sent and
// cross it — answered after the cancel, never ignored — and the others
// are stopped. One that ignores it (a delay six times the deadline) gets
// every late answer ignored, and the report says so on a line of its own.
func TestCancelSplitOverStdio(t *testing.T) {
	busyMachine(t)
	var crossed int64
	runs := 0
	// Five runs, and up to five more while no answer has crossed a cancel
	// yet: on a starved machine the answers can all come after the
	// deadline, which tests nothing of the split.
	for i := 0; i < 5 || crossed == 0 && i < 10; i++ {
		runs++
		c, table := runCancelSplit(t, `
name: honours
load: {rate: 40/s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 100ms}
mix:
  - {class: slow, uri: "sim:///slow?mime=text/plain&size=20000&delay=uniform(80ms,120ms)"}
`)
		crossed += *c.LateAnswers
		if *c.Ignored != 0 || *c.IgnoredBytes != 0 {
			t.Errorf("run %d: an honouring server was judged to ignore %d cancels (%d answered after the cancel, allowance %v ms)\n%s",
				i+1, *c.Ignored, *c.LateAnswers, deref(c.AllowanceMs), table)
		}
		if c.Cancelled == 0 {
			t.Errorf("run %d: nothing was cancelled", i+1)
		}
	}

	if crossed == 0 {
		t.Errorf("no answer crossed a cancel in %d runs: the honouring case tested nothing", runs)
	}

	c, table := runCancelSplit(t, `
name: deaf
load: {rate: 20/s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 100ms}
mix:
  - {class: deaf, uri: "sim:///deaf?mime=text/plain&size=1000&delay=600ms&honor_cancel=false"}
`)
	if *c.LateAnswers == 0 || *c.Ignored != *c.LateAnswers || *c.IgnoredBytes != *c.WastedBytes {
		t.Errorf("a server that ignores cancellation: want every late answer ignored, got %+v", c)
	}
	// Answered 600 ms after the send, cancelled at 100 ms: about 500 ms
	// after the cancel (later on a busy machine, never sooner).
	if p50 := c.CancelToLate.P50Ms; p50 < 450 || p50 > 2000 || c.CancelToLate.MaxMs < p50 {
		t.Errorf("cancel_to_late_ms p50 %v max %v: want about 500 ms after the cancel", p50, c.CancelToLate.MaxMs)
	}
	if c.AllowanceMs == nil || *c.AllowanceMs < 25 {
		t.Errorf("allowance_ms %v: at least the 25 ms floor", c.AllowanceMs)
	}
	flat := strings.Join(strings.Fields(table), " ") // the report wraps its sentences
	for _, want := range []string{"answered after the cancel", "every one ignored it", "(they came p50 ", "ignored the cancel (", "did not honour it"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the table does not say %q:\n%s", want, table)
		}
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
