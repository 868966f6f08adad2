package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// TestOneLogSaysTheVerdictAtBothEnds: with stdout and stderr in one file
// (a terminal, or a CI log that took both), the log's first and last
// lines are the verdict that decided the exit status, said there and
// nowhere else: not "✓ healthy" over a broken gate, and not a third time
// in the exit message under "result saved to". Apart (stdout to a file),
// stderr still says why the run failed.
func TestOneLogSaysTheVerdictAtBothEnds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, threshold, verdict string
		code                     int
	}{
		{"a broken gate", "read.p50<1us", "✗ 1 of 1 thresholds broken", 1},
		{"a gate held", "read.p50<1h", "✓ all 1 thresholds held", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			w := writeWorkload(t, dir, `name: onelog
load: {rate: 10/s, warmup: 0s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 5s}
mix:
  - {class: doc, mime: text/markdown, size: 1KiB, delay: 1ms}
`)
			log, err := os.Create(filepath.Join(dir, "ci.log"))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := testproc.Own(t, exec.CommandContext(ctx, binary, "run", w, "--no-live", "--threshold", c.threshold, "--out", "r.json"))
			cmd.Dir, cmd.Stdout, cmd.Stderr = dir, log, log
			err = cmd.Run()
			log.Close()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(log.Name())
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
			first, last := lines[0], lines[len(lines)-1]
			if code != c.code || first != c.verdict || last != c.verdict {
				t.Fatalf("exit %d, head -1 %q, tail -1 %q: want %d and %q at both ends:\n%s", code, first, last, c.code, c.verdict, raw)
			}
			if n := strings.Count(string(raw), c.verdict); n != 2 {
				t.Errorf("the verdict is said %d times, want twice (the two ends):\n%s", n, raw)
			}
			if !strings.HasPrefix(lines[len(lines)-2], "result saved to ") {
				t.Errorf("the line above the verdict is %q, want where the result went", lines[len(lines)-2])
			}
			if c.code != 0 { // apart, stderr alone says why
				_, stderr, code := readbench(t, dir, "run", w, "--no-live", "--threshold", c.threshold, "--out", "r2.json")
				if code != c.code || !strings.Contains(stderr, "readbench: 1 of 1 thresholds broken: read.p50<1us (measured") {
					t.Errorf("exit %d, stderr apart from the report does not say why:\n%s", code, stderr)
				}
			}
		})
	}
}
