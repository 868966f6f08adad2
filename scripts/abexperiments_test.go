//go:build linux

package scripts

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestABExperimentsScript: scripts/ab-experiments.sh, one experiment of
// two conditions — ab, and compare of 2 runs a side, of the same fast
// server on both sides, a quiet machine — prints their markdown rows: the
// script that measures docs/compare.md's table runs as documented. ab
// passes (how many rounds it took is the machine's to say: any number);
// 2 runs a side cannot answer, and compare says so (exit 1, not answered).
func TestABExperimentsScript(t *testing.T) {
	cmd := exec.Command("bash", "ab-experiments.sh")
	cmd.Env = append(os.Environ(), "E=1", "N=2", "CONDITIONS=fast:quiet:same compare:fast:quiet:same", "D=500ms", "WARMUP=200ms", "OUT="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ab-experiments.sh: %v\n%s", err, out)
	}
	gate := regexp.QuoteMeta("`read.p50=+10%,service.p50=+10%,errors=+0.5pp`")
	for _, row := range []string{
		"(?m)^\\| ab \\| fast \\(5 ms\\) \\| quiet \\| same \\| " + gate + " \\| 1 \\| 0 \\| 0 \\| 1 \\| [0-9]+ \\| [0-9]+ \\| [0-9]+% \\|$",
		"(?m)^\\| compare \\| fast \\(5 ms\\) \\| quiet \\| same \\| " + gate + " \\| 1 \\| 0 \\| 1 \\| 0 \\| 2 \\| [0-9]+ \\| [0-9]+% \\|$",
	} {
		if !regexp.MustCompile(row).Match(out) {
			t.Errorf("no row %s:\n%s", row, out)
		}
	}
}
