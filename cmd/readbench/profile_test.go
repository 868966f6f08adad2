package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// TestServeProfiles: serve writes its profiles when it exits, here at
// the end of its stdin, after answering what it read.
func TestServeProfiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, "serve", "--stdio", "--cpuprofile", "cpu.pprof", "--memprofile", "mem.pprof"))
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), `"id":1`) {
		t.Fatalf("serve: %v, answered %q", err, out)
	}
	for _, name := range []string{"cpu.pprof", "mem.pprof"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: %d bytes, err %v: want a gzip-compressed pprof profile", name, len(b), err)
		}
	}
}

// TestRunProfiles: --cpuprofile and --memprofile write pprof files (gzip
// protocol buffers) of readbench's own run; a path that cannot be written
// is a usage error before anything runs.
func TestRunProfiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, stderr, code := readbench(t, dir, "run", "--duration", "1s", "--quiet", "--out", "r.json",
		"--cpuprofile", "cpu.pprof", "--memprofile", "mem.pprof")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"cpu.pprof", "mem.pprof"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: %d bytes, err %v: want a gzip-compressed pprof profile", name, len(b), err)
		}
	}
	_, stderr, code = readbench(t, dir, "run", "--duration", "1s", "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "cpu.pprof"))
	if code != exitUsage || !bytes.Contains([]byte(stderr), []byte("--cpuprofile")) {
		t.Errorf("unwritable profile: exit %d, %q; want %d naming --cpuprofile", code, stderr, exitUsage)
	}
}
