package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadFlagsOverrideTheWorkload: --warmup, --concurrency and the short
// -d, -r and -c replace what the workload says, and the result's resolved
// workload shows it: -c with -r caps the open model's turns in flight, -c
// alone runs the closed model.
func TestLoadFlagsOverrideTheWorkload(t *testing.T) {
	t.Parallel()
	type load struct {
		Model       string  `json:"model"`
		RatePerS    float64 `json:"rate_per_s"`
		Concurrency int     `json:"concurrency"`
		Warmup      string  `json:"warmup"`
		Duration    string  `json:"duration"`
		MaxInFlight int     `json:"max_in_flight"`
	}
	for _, c := range []struct {
		name string
		args []string
		want load
	}{
		{"long names", []string{"--duration", "1s", "--rate", "20/s", "--concurrency", "3", "--warmup", "0s"},
			load{Model: "open", RatePerS: 20, Warmup: "0s", Duration: "1s", MaxInFlight: 3}},
		{"short names, a rate and a cap", []string{"-d", "1s", "-r", "20/s", "-c", "3", "--warmup", "0s"},
			load{Model: "open", RatePerS: 20, Warmup: "0s", Duration: "1s", MaxInFlight: 3}},
		{"concurrency alone is the closed model", []string{"-d", "1s", "-c", "2", "--warmup", "200ms"},
			load{Model: "closed", Concurrency: 2, Warmup: "200ms", Duration: "1s", MaxInFlight: 1000}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "r.json")
			_, stderr, code := readbench(t, dir, append([]string{"run", "--no-live", "-q", "--out", out}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Workload struct {
					Load load `json:"load"`
				} `json:"workload"`
			}
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatal(err)
			}
			if r.Workload.Load != c.want {
				t.Errorf("resolved load %+v, want %+v", r.Workload.Load, c.want)
			}
		})
	}
	// ab's runs take the same flags: each saved run's workload shows them.
	dir := t.TempDir()
	if _, stderr, code := readbench(t, dir, "ab", "--base", "embedded", "--new", "embedded", "--rounds", "1",
		"-d", "300ms", "-c", "2", "--warmup", "0s", "--out", "ab", "-q"); code != 0 {
		t.Fatalf("ab: exit %d: %s", code, stderr)
	}
	for _, side := range []string{"base", "new"} {
		data, err := os.ReadFile(filepath.Join(dir, "ab", side, "round-01-"+side+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Workload struct {
				Load load `json:"load"`
			} `json:"workload"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		if want := (load{Model: "closed", Concurrency: 2, Warmup: "0s", Duration: "300ms", MaxInFlight: 1000}); r.Workload.Load != want {
			t.Errorf("ab %s run: resolved load %+v, want %+v", side, r.Workload.Load, want)
		}
	}
	_, stderr, code := readbench(t, t.TempDir(), "run", "--warmup", "-1s")
	if code != 2 || !strings.Contains(stderr, "--warmup") {
		t.Errorf("a negative warmup: exit %d, %s", code, stderr)
	}
}
