package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/results"
)

// The claim a run makes of its machine (issue 46, item 5): a run on a
// machine whose CPUs other work kept busy says "the machine was contended
// (CPU pressure N% …)" in its report's host row and, when it fails, in
// its exit line, the last a reader sees; a run on a quiet machine never
// says it. Both halves run a bound broken on purpose (read.p50<1us), so
// the run always fails and its exit line is always there to read.

const contendedClaim = "the machine was contended (CPU pressure "

// claimRun runs the embedded scenario for a second, held to a bound no
// server meets, and returns its stdout, stderr and the result's
// host.cpu_pressure (nil when the kernel did not say).
func claimRun(t *testing.T) (stdout, stderr string, pressure *float64) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	stdout, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--threshold", "read.p50<1us", "--out", out)
	if code != exitFail {
		t.Fatalf("a bound broken on purpose: exit %d, want 1: %s", code, stderr)
	}
	host, _ := rawResult(t, out)["host"].(map[string]any)
	if p, ok := host["cpu_pressure"].(float64); ok {
		pressure = &p
	}
	return stdout, stderr, pressure
}

// TestRunSaysTheMachineWasContended: with two busy loops a core (bounded,
// ended with the test), the run measures a contended machine and says so
// in its host row and at the end of its exit line.
func TestRunSaysTheMachineWasContended(t *testing.T) {
	stop := hogCPUs(t, 2*time.Minute)
	stdout, stderr, pressure := claimRun(t)
	stop()
	if pressure == nil {
		needs.Missing(t, "CPU pressure stall information (/proc/pressure/cpu)", "a Linux kernel built with CONFIG_PSI (booted with psi=1)")
	}
	if !results.Contended(pressure) {
		t.Fatalf("with two busy loops a core the run measured CPU pressure %.2f, under %.2f: the test could not make the machine busy", *pressure, results.AdviceCaveatPressure)
	}
	if !strings.Contains(stdout, contendedClaim) {
		t.Errorf("pressure %.2f: the report does not say the machine was contended:\n%s", *pressure, stdout)
	}
	last := lastLine(stderr)
	if !strings.Contains(last, "thresholds broken") || !strings.Contains(last, contendedClaim) {
		t.Errorf("pressure %.2f: the exit line does not say the machine was contended: %q", *pressure, last)
	}
}

// TestRunClaimsNoContentionUnlessMeasured: without busy loops of the
// test's own, the run claims contention exactly when its result's
// host.cpu_pressure reaches results.AdviceCaveatPressure: on a quiet
// machine never, on a machine other jobs keep busy only with the figure
// behind it. It holds on any machine, so it never skips.
func TestRunClaimsNoContentionUnlessMeasured(t *testing.T) {
	t.Parallel()
	stdout, stderr, pressure := claimRun(t)
	want := results.Contended(pressure)
	if got := strings.Contains(stdout, contendedClaim); got != want {
		t.Errorf("host.cpu_pressure %v: the report claims contention %v, want %v:\n%s", fmtPressure(pressure), got, want, stdout)
	}
	if got := strings.Contains(stderr, contendedClaim); got != want {
		t.Errorf("host.cpu_pressure %v: the exit line claims contention %v, want %v: %q", fmtPressure(pressure), got, want, lastLine(stderr))
	}
	if strings.Contains(stdout, "CPU contended") {
		t.Errorf("the host row says \"CPU contended\" whatever the pressure:\n%s", stdout)
	}
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// fmtPressure is a pressure for a message: "unknown" for nil.
func fmtPressure(p *float64) string {
	if p == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.2f", *p)
}
