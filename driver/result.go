package driver

import (
	"errors"
	"fmt"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// result turns a finished run into its result document, tool naming the
// readbench that ran it. It is the one place where what the driver
// measured becomes a results.Result (Run returns it), so `run`, every
// step of `capacity` and anything later that runs the driver build the
// same document from the same report.
//
// A run whose accounting identity broke still gets its result (it is the
// evidence): results.Result.Identity says so, after the caller has saved
// it (package runner).
func (r *measurements) result(tool results.Tool) (*results.Result, error) {
	if r.Workload == nil {
		return nil, errors.New("build result: the report names no workload")
	}
	m := r.Meta
	m.ToolName, m.ToolVersion = tool.Name, tool.Version
	res, err := results.Build(m, r.Workload, r.MeasuredPhase, r.Warmup)
	if err != nil {
		return nil, fmt.Errorf("build result: %w", err)
	}
	return res, nil
}

// connectionsOf is what the run's HTTP connections did, in the result's
// form (nil: the target has none).
func connectionsOf(c *conns.Stats, keepAlive bool) *results.Connections {
	if c == nil {
		return nil
	}
	return &results.Connections{
		KeepAlive: keepAlive,
		Opened:    c.Opened, Requests: c.Requests, Reused: c.Reused, PeakOpen: c.Peak,
		ClosedByCut: c.ClosedByCut, ClosedByServer: c.ClosedByServer, ClosedByClient: c.ClosedByClient,
		HTTP2: c.HTTP2,
	}
}

// measurements is what a finished run produced: its two phases'
// recordings, and what it learned of the target and of itself, kept in
// the result's own form (results.Meta) as the run learned it, so that no
// copy stands between the run and its document. result turns it into the
// result document.
type measurements struct {
	// Workload is the workload the run was given (Options.Workload: the
	// whole run's, before its share was taken); Meta.Segment is the share
	// of it this process drove: a result records both.
	Workload *workload.Workload
	// Meta is everything the result records besides the phases' figures
	// (its tool's name is Result's to add).
	Meta results.Meta
	// MeasuredPhase and Warmup are the run's two phases' recordings (the
	// result's figures are the measured phase's).
	MeasuredPhase, Warmup *stats.Phase
}
