package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// serverCost is the result's server_cost block as the tests read it.
type serverCost struct {
	Available         bool    `json:"available"`
	Reason            string  `json:"reason"`
	Processes         int     `json:"processes"`
	Samples           int     `json:"samples"`
	CPUSeconds        float64 `json:"cpu_s"`
	Reads             int64   `json:"reads"`
	CPUMsPer1000Reads float64 `json:"cpu_ms_per_1000_reads"`
	RSS               struct {
		Start float64 `json:"start_mib"`
		Peak  float64 `json:"peak_mib"`
		End   float64 `json:"end_mib"`
		Slope float64 `json:"slope_mib_per_min"`
	} `json:"rss"`
	Cold struct {
		Available          bool    `json:"available"`
		SpawnToFirstAnswer float64 `json:"spawn_to_first_answer_ms"`
		Handshake          float64 `json:"handshake_ms"`
		FirstRead          float64 `json:"first_read_ms"`
		SteadyMedian       float64 `json:"steady_median_ms"`
		Ratio              float64 `json:"first_read_vs_median"`
	} `json:"cold_start"`
}

func loadServerCost(t *testing.T, path string) serverCost {
	t.Helper()
	loadResult(t, path) // every key, the identity
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ServerCost serverCost `json:"server_cost"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.ServerCost
}

// TestServerCostStdio: the embedded server is two children over stdio;
// their CPU, memory and cold start are in the result.
func TestServerCostStdio(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, stderr, code := readbench(t, dir, "run", "--duration", "2s", "--sessions", "2", "--quiet", "--out", "r.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	c := loadServerCost(t, filepath.Join(dir, "r.json"))
	if runtime.GOOS != "linux" {
		if c.Available || c.Reason == "" {
			t.Errorf("off Linux: %+v", c)
		}
		return
	}
	if !c.Available || c.Processes != 2 || c.Samples < 5 {
		t.Fatalf("server cost %+v", c)
	}
	if c.CPUSeconds <= 0 || c.Reads <= 0 || c.CPUMsPer1000Reads <= 0 {
		t.Errorf("CPU %v s for %d reads (%v ms per 1000)", c.CPUSeconds, c.Reads, c.CPUMsPer1000Reads)
	}
	if c.RSS.Start <= 1 || c.RSS.Peak < c.RSS.Start || c.RSS.Peak < c.RSS.End {
		t.Errorf("RSS %+v", c.RSS)
	}
	if !c.Cold.Available || c.Cold.SpawnToFirstAnswer <= 0 || c.Cold.Handshake <= 0 || c.Cold.FirstRead <= 0 ||
		c.Cold.SteadyMedian <= 0 || c.Cold.Ratio <= 0 {
		t.Errorf("cold start %+v", c.Cold)
	}
}

// TestServerCostPID: an HTTP target is sampled only when its pid is given,
// and a result without it says why there are no figures.
func TestServerCostPID(t *testing.T) {
	t.Parallel()
	url, proc := startServeProc(t)

	dir := t.TempDir()
	_, errOut, code := readbench(t, dir, "run", "--target", url, "--duration", "1s", "--quiet", "--out", "none.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if c := loadServerCost(t, filepath.Join(dir, "none.json")); c.Available || !strings.Contains(c.Reason, "--server-pid") {
		t.Errorf("without --server-pid: %+v", c)
	}

	_, errOut, code = readbench(t, dir, "run", "--target", url, "--duration", "2s", "--quiet", "--out", "pid.json",
		"--server-pid", strconv.Itoa(proc.Pid))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	c := loadServerCost(t, filepath.Join(dir, "pid.json"))
	if runtime.GOOS != "linux" {
		return
	}
	if !c.Available || c.Processes != 1 || c.CPUSeconds <= 0 || c.RSS.Peak <= 1 || c.Samples < 5 {
		t.Errorf("with --server-pid: %+v", c)
	}
	if c.Cold.Available {
		t.Errorf("cold start of a server readbench did not spawn: %+v", c.Cold)
	}
}
