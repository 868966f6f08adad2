package driver

import (
	"errors"
	"fmt"

	"github.com/readbench/readbench/results"
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
	rw := resultWorkload(r.Workload)
	res, err := results.Build(r.meta(tool), &rw, r.Run, r.Warmup)
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
		Digests: r.Digests, Sessions: r.Sessions.result(), Connections: r.connections(),
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
