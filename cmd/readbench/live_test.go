package main

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// TestLiveOffATerminal: stderr that is not a terminal never gets the
// view. --live says so in one line and the run is otherwise as without
// it; with --quiet not even that; --live with --no-live is bad usage.
func TestLiveOffATerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stdout, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--live", "--out", "r.json")
	const note = "readbench: --live: stderr is not a terminal; no live view\n"
	if code != exitOK || !strings.HasPrefix(stderr, note) || strings.Count(stderr, note) != 1 {
		t.Errorf("--live on a pipe: exit %d, stderr:\n%s", code, stderr)
	}
	if rest := strings.TrimPrefix(stderr, note); rest != "result saved to r.json\n" {
		t.Errorf("--live on a pipe: stderr beyond the note is %q, want what a run without it writes", rest)
	}
	if strings.Contains(stdout+stderr, "\x1b") || !strings.Contains(stdout, "readbench 0.1.0-dev: docs-attachments") {
		t.Errorf("--live on a pipe: want the plain report, got:\n%s", stdout)
	}
	_, stderr, code = readbench(t, dir, "run", "--duration", "1s", "--live", "--quiet", "--out", "r.json")
	if code != exitOK || stderr != "" {
		t.Errorf("--live --quiet on a pipe: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = readbench(t, dir, "run", "--duration", "1s", "--live", "--no-live", "--out", "r.json")
	if code != exitUsage || !strings.Contains(stderr, "give --live or --no-live, not both") {
		t.Errorf("--live --no-live: exit %d, stderr %q", code, stderr)
	}
}

func TestExpectedLength(t *testing.T) {
	rate := func(perS float64) units.Rate { return units.Rate{PerSecond: perS} }
	for _, tc := range []struct {
		name string
		load workload.Load
		want time.Duration
	}{
		{"warmup and duration", workload.Load{Warmup: time.Second, Duration: 6 * time.Second}, 7 * time.Second},
		{"stages", workload.Load{Stages: []workload.Stage{{For: 3 * time.Second}, {For: 4 * time.Second}}}, 7 * time.Second},
		{"a turn count at a rate", workload.Load{Turns: 100, Rate: rate(20)}, 5 * time.Second},
		{"a turn count, closed", workload.Load{Model: workload.ModelClosed, Turns: 100, Concurrency: 4}, 0},
	} {
		if got := expectedLength(tc.load); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
