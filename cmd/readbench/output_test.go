//go:build unix

package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRunOutFIFO: a result saved to a FIFO reaches its reader whole and the
// FIFO stays a FIFO (a rename over it would have left a regular file and a
// reader waiting forever).
func TestRunOutFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "result.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until readbench opens it to write
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	stdout, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--quiet", "--out", fifo)
	if code != 0 {
		// Unblock the reader before failing.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-got
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", info, err) // its reader is left blocked: the test binary ends
	}
	var doc struct{ Schema string }
	if b := <-got; json.Unmarshal(b, &doc) != nil || doc.Schema != "readbench/result/v1" {
		t.Errorf("the FIFO's reader got no result: %.200q", b)
	}
}

// TestRunOutRefusedBeforeTheRun: --out naming a directory or a file in a
// missing folder is a usage error given before any read, naming what is
// wrong, and no folder is created; --out - puts the result alone on stdout.
func TestRunOutRefusedBeforeTheRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct{ out, want string }{
		{".", "is a directory"},
		{"nonexistent/dir/x.json", "the folder nonexistent/dir does not exist"},
	}
	for _, c := range cases {
		_, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--out", c.out)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "reads") {
			t.Errorf("--out %s: exit %d, stderr:\n%s\nwant exit %d and %q before any read", c.out, code, stderr, exitUsage, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nonexistent")); err == nil {
		t.Error("the missing folder was created")
	}
	// The run with --out - measures: on a busy machine it may exit 1 with
	// readbench's own answer (generator-bound, all reads dropped), and
	// the result must still be stdout alone.
	machine := watchMachine()
	stdout, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--out", "-")
	var doc map[string]any
	if json.Unmarshal([]byte(stdout), &doc) != nil || doc["schema"] != "readbench/result/v1" {
		t.Fatalf("--out -: exit %d (%s), stdout is not the result alone:\n%.300s\n%s", code, machine, stdout, stderr)
	}
	machine.result(doc)
	switch {
	case code == 1 && machine.Busy():
		t.Logf("--out -: exit 1 on a busy machine, readbench's own answer (%s): %s", machine, stderr)
	case code != 0:
		t.Errorf("--out -: exit %d (%s):\n%s", code, machine, stderr)
	}
	if !strings.Contains(stderr, "result saved to standard output") {
		t.Errorf("--out -: stderr does not say where the result went:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error(`a file named "-" was created`)
	}
}

// TestCapacityOutMissingParent: capacity makes the folder --out names, not
// the folders above it.
func TestCapacityOutMissingParent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, stderr, code := readbench(t, dir, "capacity", "--slo", "turn.p99<800ms", "--out", "no/such/caps")
	if code != exitUsage || !strings.Contains(stderr, "the folder no/such does not exist") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Error("the missing folders were created")
	}
}
