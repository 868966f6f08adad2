package runner

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/barrier"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/workload"
)

// TestExtrasProfile: a profile that cannot be created is bad input naming
// its flag, before anything runs; the ones asked for are written at
// Close, and a second Close does nothing.
func TestExtrasProfile(t *testing.T) {
	dir := t.TempDir()
	var x Extras
	err := x.Profile(filepath.Join(dir, "no", "such", "cpu.pprof"), "")
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "--cpuprofile") {
		t.Fatalf("unwritable profile: %v; want an InputError naming --cpuprofile", err)
	}
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	if err := x.Profile(cpu, mem); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{cpu, mem} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v, %v; want a profile", f, st, err)
		}
	}
	if err := x.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestUnrenewableNoTokens: no tokens (or tokens that are not a login's)
// have nothing to warn of.
func TestUnrenewableNoTokens(t *testing.T) {
	if w := Unrenewable(nil, time.Hour, time.Now()); w != "" {
		t.Errorf("no tokens: %q", w)
	}
}

// TestShardStart: a shard says when its schedule starts, or whom it waits
// for; a run that starts at once says nothing.
func TestShardStart(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	if got := ShardStart(driver.Options{}, now); len(got) != 0 {
		t.Errorf("a run that starts at once: %q", got)
	}
	seg := workload.Segment{K: 2, N: 3}
	got := ShardStart(driver.Options{Segment: seg, StartAt: now.Add(30 * time.Second)}, now)
	if want := "segment 2/3: connecting, then starting the schedule at 2026-12-01T08:00:30Z (in 30s)"; len(got) != 1 || got[0] != want {
		t.Errorf("--start-at: %q, want %q", got, want)
	}
	got = ShardStart(driver.Options{Segment: seg, Barrier: &barrier.Config{Dir: "/shared", N: 3, Run: "r1", Timeout: 5 * time.Minute}}, now)
	if want := "segment 2/3: connecting, then waiting in /shared for all 3 shards of run r1 (up to 5m)"; len(got) != 1 || got[0] != want {
		t.Errorf("--barrier: %q, want %q", got, want)
	}
}
