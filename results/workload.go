package results

import (
	"encoding/json"
	"time"

	"github.com/readbench/readbench/workload"
)

// The workload a document keeps (its "workload" key) and what the advice
// reads off it.

// savedWorkload is w as a result saves it and reads it back: its secrets
// redacted, the fields a result does not keep left out. A document holds
// it so in memory too, so that a result built by a run and one loaded
// from its file are the same, and neither holds a secret.
func savedWorkload(w *workload.Workload) (workload.Workload, error) {
	var rw workload.Workload
	b, err := json.Marshal(w)
	if err == nil {
		err = json.Unmarshal(b, &rw)
	}
	return rw, err
}

// policy is what the advice needs of the workload: the most reads a turn
// issues at once and the limits it ran with.
type policy struct {
	parallel                         int
	deadline, readTimeout, turnLimit time.Duration
}

// policyOf is the advice's policy of a workload as the document records
// it (a run's, or a saved shard's): the most reads a turn issues at once
// (the deadline is sized on the slowest of them, so the largest count
// drawn is the conservative one) and its limits.
func policyOf(w workload.Workload) policy {
	a := w.Turn.Attachments
	p := policy{parallel: max(a.Fixed, 1), deadline: w.Turn.Deadline, readTimeout: w.Turn.ReadTimeout, turnLimit: w.Turn.Limit()}
	for n, wt := range a.Weighted {
		if wt > 0 {
			p.parallel = max(p.parallel, n)
		}
	}
	return p
}
