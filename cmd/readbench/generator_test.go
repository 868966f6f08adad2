package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// generatorDoc is what the generator tests read of a result.
type generatorDoc struct {
	GeneratorBound bool `json:"generator_bound"`
	Generator      struct {
		Saturated  bool    `json:"saturated"`
		Saturation string  `json:"saturation"`
		LagShare   float64 `json:"lag_share"`
		Note       string  `json:"note"`
	} `json:"generator"`
}

func readGenerator(t *testing.T, path string) generatorDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g generatorDoc
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// burnCPU keeps every CPU of the machine busy (two spinning goroutines
// per CPU) until the returned stop is called, which waits for them.
func burnCPU() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 2 * runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				if n%1_000_000 == 0 {
					runtime.Gosched()
				}
			}
		}()
	}
	return func() { cancel(); wg.Wait() }
}

// TestGeneratorBoundBusyLowRate: 5 turns/s on a machine kept busy on
// purpose is jitter at most, never generator-bound: the banner that fired
// on almost every busy run said nothing.
func TestGeneratorBoundBusyLowRate(t *testing.T) {
	dir := t.TempDir()
	stop := burnCPU()
	stdout, stderr, code := readbench(t, dir, "run", "--rate", "5/s", "--duration", "2s", "--out", "r.json")
	stop()
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	g := readGenerator(t, filepath.Join(dir, "r.json"))
	if g.GeneratorBound || g.Generator.Saturated || strings.Contains(stdout, "GENERATOR-BOUND") {
		t.Errorf("a busy machine at 5 turns/s was called generator-bound: %+v\n%s", g, stdout)
	}
	if g.Generator.Note == "" {
		t.Errorf("the lag's share of the figures is not stated: %+v", g)
	}
}

// TestGeneratorBoundNothingSent: at a rate readbench cannot start, every
// read is dropped; the run is always flagged and says why.
func TestGeneratorBoundNothingSent(t *testing.T) {
	dir := t.TempDir()
	stdout, _, _ := readbench(t, dir, "run", "--rate", "1000000/s", "--duration", "1s", "--out", "r.json")
	g := readGenerator(t, filepath.Join(dir, "r.json"))
	if !g.GeneratorBound || !g.Generator.Saturated || !strings.Contains(stdout, "GENERATOR-BOUND: readbench could not keep the schedule") {
		t.Errorf("a run at 1,000,000 turns/s was not flagged: %+v\n%s", g, stdout)
	}
}
