package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/testproc"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// TestOpenFilesWarning: a run whose listen streams need more file
// descriptors than the open-files limit allows is told so, with the
// limit, the need and how to raise it; one within the limit, or with no
// listeners, is not.
func TestOpenFilesWarning(t *testing.T) {
	http := targets.Target{Kind: targets.HTTP, Address: "http://127.0.0.1:1/mcp"}
	stdio := targets.Target{Kind: targets.Stdio, Argv: []string{"server"}}
	for _, c := range []struct {
		name       string
		target     targets.Target
		listen     *workload.Listen
		soft, hard uint64
		want       string // "" for no warning
	}{
		{"no listeners", http, nil, 64, 64, ""},
		{"10,000 streams within 20,000", http, &workload.Listen{Listeners: 100, Streams: 100}, 20000, 20000, ""},
		{"10,000 streams past 1,024", http, &workload.Listen{Listeners: 100, Streams: 100}, 1024, 4096, "is 1024 (hard limit 4096) and the listen streams of 100 listeners need about 10258"},
		{"legacy sessions count two each", http, &workload.Listen{Listeners: 1000, Streams: 1}, 2000, 2000, "need about 2258"},
		{"stdio: three pipes a listener", stdio, &workload.Listen{Listeners: 500, Streams: 9}, 1024, 1024, "need about 1758"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &workload.Workload{Target: c.target, Sessions: 2, Listen: c.listen}
			got := openFilesWarning(w, c.soft, c.hard)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("warning %q, want one holding %q", got, c.want)
			}
			if got != "" && !strings.Contains(got, "ulimit -Hn") {
				t.Errorf("warning %q does not say how to raise the limit", got)
			}
		})
	}
}

// TestRaiseOpenFiles: after raiseOpenFiles the soft limit is the hard
// one, as a run holding thousands of listen streams needs.
func TestRaiseOpenFiles(t *testing.T) {
	soft, hard, ok := raiseOpenFiles()
	if !ok { // a system without RLIMIT_NOFILE: fails in CI, which runs on Linux
		needs.Missing(t, "an open-files limit (RLIMIT_NOFILE)", "run the tests on Linux or another Unix")
		return
	}
	if soft != hard {
		t.Errorf("soft limit %d after raising, hard %d", soft, hard)
	}
}

// TestListenersPastOpenFilesFail: with an open-files limit too low for the
// listeners asked (ulimit -n 100, 60 stdio listeners), readbench warns
// before the run, counts the sessions that could not open, and the run
// fails (exit 1), its verdict saying so: thresholds on notifications
// would otherwise hold for fewer listeners than asked.
func TestListenersPastOpenFilesFail(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	y := `
name: fd-limit
target: embedded
sessions: 1
load: {rate: 2/s, duration: 2s, warmup: 500ms}
mix:
  - {class: doc, uri: "sim:///doc-1?size=100"}
listen: {listeners: 60, uris: attached}
`
	if err := os.WriteFile(filepath.Join(dir, "l.yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	c := testproc.Own(t, exec.Command("sh", "-c", `ulimit -n 100 && exec "$0" run l.yaml --out r.json -q --no-live`, binary))
	c.Dir = dir
	out, err := c.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1:\n%s", err, out)
	}
	for _, want := range []string{"the open-files limit (RLIMIT_NOFILE) is 100", "listener sessions did not open: the run measured fewer listeners than it asked for"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	r := rawResult(t, filepath.Join(dir, "r.json"))
	l := r["subscriptions"].(map[string]any)["listeners"].(map[string]any)
	if l["failed"].(float64) == 0 || l["connected"].(float64)+l["failed"].(float64) != 60 {
		t.Errorf("listeners %v: want some failed, connected + failed = 60", l)
	}
}
