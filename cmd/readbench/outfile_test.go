package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestRenderOutUnwritable: report and compare refuse an --out they
// cannot write before any work, exit 2 as run does, naming the path
// given. Before, they rendered, failed on the temporary file the atomic
// write makes beside it ("open /proc/.y.html.tmp-…") and exited 1.
func TestRenderOutUnwritable(t *testing.T) {
	const result = "../../results/testdata/result.json"
	for _, args := range [][]string{
		{"report", result, "--format", "html", "--out", "/proc/y.html"},
		{"compare", result, result, "--format", "html", "--out", "/proc/y.html"},
		{"report", result, "-o", "/proc/y.html"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"readbench"}, args...), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "cannot write to /proc/y.html") || strings.Contains(stderr.String(), ".tmp") {
			t.Errorf("readbench %s: exit %d, want %d naming /proc/y.html (no temporary file):\n%s", strings.Join(args, " "), code, exitUsage, stderr.String())
		}
	}
}
