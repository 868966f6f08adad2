//go:build linux

package scripts

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestABExperimentsScript: scripts/ab-experiments.sh, one experiment of one condition
// (the same fast server on both sides, a quiet machine), prints its
// markdown row with the experiment passed: the script that measures
// docs/compare.md's table runs as documented. How many rounds it took is
// the machine's to say (6 when quiet; 16 in a CI run whose CPU was
// contended 75% of the time): any number of them.
func TestABExperimentsScript(t *testing.T) {
	cmd := exec.Command("bash", "ab-experiments.sh")
	cmd.Env = append(os.Environ(), "E=1", "CONDITIONS=fast:quiet:same", "D=500ms", "WARMUP=200ms", "OUT="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ab-experiments.sh: %v\n%s", err, out)
	}
	row := regexp.MustCompile("(?m)^\\| fast \\(5 ms\\) \\| quiet \\| same \\| `read.p50=\\+10%` \\| 1 \\| 0 \\| 0 \\| 1 \\| [0-9]+ \\| [0-9]+ \\| [0-9]+% \\|$")
	if !row.Match(out) {
		t.Errorf("no passed row for the condition:\n%s", out)
	}
}
