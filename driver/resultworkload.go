package driver

import (
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// resultWorkload is w as a result document records it: workload's own
// saved form (Workload.Saved, beside the workload's types, so that no
// field of the resolved workload is left out of a result), which
// results.Workload is.
func resultWorkload(w *workload.Workload) results.Workload { return w.Saved() }
