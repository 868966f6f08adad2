package results

import (
	"fmt"

	"github.com/readbench/readbench/internal/numfmt"
)

// Whether the machine a run measured on was contended, said once for
// every place that says it: the report's host row and the exit message of
// a run that failed (results.Judge). A run on a machine whose CPUs other
// work kept busy can be called overloaded, or break a bound, because the
// server and readbench waited for a CPU, not because the server is slow;
// capacity already charges such a step to the machine, and a run's own
// words must not leave a reader to guess it (issue 46, item 5).
//
// The cut-off is AdviceCaveatPressure, the share from which the advice
// already carries "the run was contended": one word, one threshold. Under
// it nothing claims contention, whatever the machine felt like, so a quiet
// run never cries wolf on the machine's behalf.

// Contended says whether host.cpu_pressure (nil: the kernel did not say)
// is AdviceCaveatPressure or more.
func Contended(pressure *float64) bool {
	return pressure != nil && *pressure >= AdviceCaveatPressure
}

// ContendedText is the claim, "the machine was contended (CPU pressure
// 97% of the measured run)", or "" when Contended is false.
func ContendedText(pressure *float64) string {
	if !Contended(pressure) {
		return ""
	}
	return fmt.Sprintf("the machine was contended (CPU pressure %s of the measured run)", numfmt.Share(*pressure))
}

// ContendedWhy is the claim with what it means for a run that failed:
// the exit message's clause, "" when Contended is false.
func ContendedWhy(pressure *float64) string {
	c := ContendedText(pressure)
	if c == "" {
		return ""
	}
	return c + ": other work kept readbench, and a server on this machine, waiting for a CPU, " +
		"so part of this may be the machine's, not the server's; run it again on a quieter machine"
}
