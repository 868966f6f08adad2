package driver

import (
	"errors"
	"fmt"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/servercost"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// Result turns a finished run into its result document, tool naming the
// readbench that ran it. It is the one place where what the driver
// measured and found of the target becomes a results.Result, so `run`,
// every step of `capacity` and anything later that runs the driver build
// the same document from the same report.
//
// A run whose accounting identity broke still gets its result (it is the
// evidence): results.Result.Identity says so, after the caller has saved
// it (package runner).
func (r *Measurements) Result(tool results.Tool) (*results.Result, error) {
	if r.Workload == nil {
		return nil, errors.New("build result: the report names no workload")
	}
	res, err := results.Build(r.meta(tool), r.Workload, r.MeasuredPhase, r.Warmup)
	if err != nil {
		return nil, fmt.Errorf("build result: %w", err)
	}
	return res, nil
}

// meta is what the run knew besides its measurements, in the form the
// result document takes it.
func (r *Measurements) meta(tool results.Tool) results.Meta {
	return results.Meta{
		ToolName: tool.Name, ToolVersion: tool.Version,
		Started: r.Started, Ended: r.Ended, Partial: r.Partial,
		Target: results.Target{
			Address: r.Target.String(), Transport: r.Target.Transport(),
			Server:          results.Server{Name: r.Server.Name, Version: r.Server.Version},
			ProtocolVersion: r.ProtocolVersion,
		},
		AskedRate: r.AskedRate, Measured: r.Measured,
		LateObservable: r.LateObservable, LateWatch: r.LateWatch, AuthLost: r.AuthLost, AuthClient: r.AuthClient,
		Cost: r.Cost, GeneratorPeakRSS: r.GeneratorPeakRSS, GeneratorCPU: r.GeneratorCPU, CPUPressure: r.CPUPressure,
		Digests: r.Digests, Sessions: r.Sessions, Connections: r.connections(),
		Segment: results.Segment{K: r.Segment.K, N: r.Segment.N, Barrier: barrierRecord(r.Barrier)},
	}
}

// connections is what the run's HTTP connections did, in the result's
// form (nil: none).
func (r *Measurements) connections() *results.Connections {
	c := r.Connections
	if c == nil {
		return nil
	}
	return &results.Connections{
		KeepAlive: !r.Workload.Load.NoKeepAlive,
		Opened:    c.Opened, Requests: c.Requests, Reused: c.Reused, PeakOpen: c.Peak,
		ClosedByCut: c.ClosedByCut, ClosedByServer: c.ClosedByServer, ClosedByClient: c.ClosedByClient,
	}
}

// Measurements is what a finished run produced: what it recorded and what
// it learned of the target. Result turns it into the result document.
type Measurements struct {
	// Workload is the workload the run was given (Options.Workload: the
	// whole run's, before its share was taken) and Segment the share of it
	// this process drove: a result records both.
	Workload        *workload.Workload
	Segment         workload.Segment
	Barrier         *Barriered // how --barrier started this shard (nil: it did not)
	Started, Ended  time.Time
	Measured        time.Duration // length of the measured phase
	Partial         bool          // interrupted before the schedule ended
	Target          targets.Target
	Server          client.Implementation
	ProtocolVersion string
	// AskedRate is the turns per second the schedule asked for over the
	// measured phase: the load's rate, or the mean of its stages (ramps
	// included); 0 for the closed model, which asks for no rate.
	AskedRate float64
	// MeasuredPhase and Warmup are the run's two phases' recordings (the
	// result's figures are the measured phase's).
	MeasuredPhase, Warmup *stats.Phase
	// LateObservable says whether an answer to a cancelled read could be
	// seen on this transport (see client.Session.LateAnswersObservable);
	// LateWatch is how long after the last turn the run kept watching.
	LateObservable bool
	LateWatch      time.Duration
	Cost           servercost.Summary // the server's CPU, memory and cold start
	// GeneratorPeakRSS is this process's peak resident memory at the end
	// of the run (servercost.SelfPeakRSS; 0: unknown): the reader's cost.
	GeneratorPeakRSS int64
	// GeneratorCPU is this process's CPU time over the measured phase
	// (its children, stdio servers, not included), sampled as the
	// server's is: beside the server's cost it shows which side of the
	// measurement is the busier (0: unknown).
	GeneratorCPU time.Duration
	// CPUPressure is the share of the measured phase in which some task
	// on this machine waited for a CPU (nil: unknown): a server on the
	// same machine is slowed by it, whatever its own work.
	CPUPressure *float64
	// Digests is what a read of each URI returned (sampled: digests.go),
	// warmup reads included.
	Digests map[string]results.Digest
	// AuthLost is the one line saying that the run lost its authorization
	// (the server kept refusing its reads: auth.go), "" when it did not.
	AuthLost string
	// AuthClient is who the run obtained its tokens as (nil: no tokens,
	// or a source that cannot say).
	AuthClient *auth.Client
	// Sessions is how connecting went (asked, connected, failed and why)
	// and, with churn, how many sessions were opened and replaced.
	Sessions results.Sessions
	// Connections is what the sessions' HTTP connections did over the
	// run (warmup included); nil for a target without them (stdio).
	Connections *client.ConnStats
}
