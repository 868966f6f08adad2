package results

import "fmt"

// Identity checks the accounting identity of the document, both phases:
// every scheduled read has exactly one outcome (docs/measurement.md,
// outcomes). It is the one place the identity is decided: Build records
// the measured phase's as totals.identity_ok, and whatever runs a
// command judges a saved result by this (package runner), so a run, a
// capacity step, an ab round's run and a merge fail alike when readbench
// lost count of a read.
func (r *Result) Identity() error {
	if err := identity(r.Totals.Scheduled, r.Totals.Outcomes); err != nil {
		return fmt.Errorf("measured phase: %w", err)
	}
	if err := identity(r.Warmup.Scheduled, r.Warmup.Outcomes); err != nil {
		return fmt.Errorf("warmup phase: %w", err)
	}
	return nil
}

// identity is scheduled = sum of outcomes, or the error that says by how
// much it is not.
func identity(scheduled int64, outcomes map[string]int64) error {
	var sum int64
	for _, n := range outcomes {
		sum += n
	}
	if sum != scheduled {
		return fmt.Errorf("accounting identity broken: %d reads scheduled, %d outcomes counted (readbench lost count of reads: the figures cannot be trusted)", scheduled, sum)
	}
	return nil
}
