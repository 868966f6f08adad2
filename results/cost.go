package results

import (
	"math"
	"time"

	"github.com/readbench/readbench/servercost"
)

// ServerCost is the result's "server_cost" block (docs/results.md): what the
// server spent to give the latencies beside it. Every key is always
// written; when the cost could not be sampled (an HTTP target without
// --server-pid, a system without /proc) available is false and reason
// says why, so a zero is never mistaken for a free server.
type ServerCost struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason"` // empty when available
	Processes int    `json:"processes"`
	Samples   int    `json:"samples"`
	// CPUSeconds is user+system CPU time over the measured phase, summed
	// over the server's processes.
	CPUSeconds float64 `json:"cpu_s"`
	Reads      int64   `json:"reads"`
	// CPUMsPer1000Reads is null without an answered read: the CPU was
	// spent, but on nothing a read can be charged with.
	CPUMsPer1000Reads *float64 `json:"cpu_ms_per_1000_reads"`
	RSS               RSSCost  `json:"rss"`
	ColdStart         Cold     `json:"cold_start"`
}

// RSSCost is resident memory from the end of the handshake to the end of
// the run. A long run whose slope stays positive, well above its
// standard error, is the sign of a leak; growth alone may be a cache
// filling up. The slope and its error are null unless the run was long
// enough to fit one (servercost.FitSlope: a minute, 20 samples).
type RSSCost struct {
	StartMiB          float64  `json:"start_mib"`
	PeakMiB           float64  `json:"peak_mib"`
	EndMiB            float64  `json:"end_mib"`
	GrowthMiB         float64  `json:"growth_mib"` // end - start
	SlopeMiBPerMinute *float64 `json:"slope_mib_per_min"`
	SlopeStdErr       *float64 `json:"slope_se_mib_per_min"`
}

// Cold is how a server readbench spawned starts: spawn to its first
// message and the handshake (the slowest session), and the first read
// against the steady-state median service time, the cost a host pays on
// every fresh spawn.
type Cold struct {
	Available            bool     `json:"available"` // false unless readbench spawned the server
	SpawnToFirstAnswerMs float64  `json:"spawn_to_first_answer_ms"`
	HandshakeMs          float64  `json:"handshake_ms"`
	FirstReadMs          *float64 `json:"first_read_ms"`    // null when no read was answered
	SteadyMedianMs       *float64 `json:"steady_median_ms"` // service.p50_ms; null when service.count is 0
	// FirstReadVsMedian is first_read_ms / steady_median_ms, null
	// without a median (no read answered in the measured phase).
	FirstReadVsMedian *float64 `json:"first_read_vs_median"`
}

// ServerCostOf makes the block from the driver's figures and the
// steady-state median service time (the result's service.p50_ms; 0 when
// no read was answered, as the latency block of nothing has it).
func ServerCostOf(c servercost.Summary, steadyMedianMs float64) ServerCost {
	s := ServerCost{Available: c.Available, Reason: c.Reason, Processes: c.Processes, Samples: c.Samples, Reads: c.Reads}
	if !c.Available {
		if s.Reason == "" {
			s.Reason = "not measured"
		}
		return s
	}
	s.Reason = ""
	s.CPUSeconds = costMillis(c.CPU) / 1000
	s.CPUMsPer1000Reads = perThousandReads(c.CPU, c.Reads)
	s.RSS = RSSCost{
		StartMiB: mebibytes(c.RSSStart), PeakMiB: mebibytes(c.RSSPeak), EndMiB: mebibytes(c.RSSEnd),
		GrowthMiB: mebibytes(c.RSSGrowth),
	}
	if sl := c.RSSSlope; sl.OK {
		s.RSS.SlopeMiBPerMinute = figure(roundTo(sl.MiBPerMin, 1e3))
		s.RSS.SlopeStdErr = figure(roundTo(sl.StdErr, 1e3))
	}
	if c.ColdStart {
		s.ColdStart = Cold{
			Available:            true,
			SpawnToFirstAnswerMs: costMillis(c.SpawnToFirstAnswer),
			HandshakeMs:          costMillis(c.Handshake),
		}
		if steadyMedianMs > 0 {
			s.ColdStart.SteadyMedianMs = figure(steadyMedianMs)
		}
		if c.FirstRead > 0 { // the recorder saw an answered read
			first := costMillis(c.FirstRead)
			s.ColdStart.FirstReadMs = &first
			s.ColdStart.FirstReadVsMedian = quotient(first, steadyMedianMs, func(v float64) float64 { return roundTo(v, 1e3) })
		}
	}
	return s
}

// perThousandReads is cpu per 1,000 reads in milliseconds, the unit of
// server_cost and generator alike; nil without reads.
func perThousandReads(cpu time.Duration, reads int64) *float64 {
	return quotient(float64(cpu)*1000, float64(reads), func(ns float64) float64 { return costMillis(time.Duration(ns)) })
}

// costMillis is d in milliseconds to the microsecond: CPU time comes in
// clock ticks (10 ms), so more digits would be noise.
func costMillis(d time.Duration) float64 { return roundTo(float64(d)/float64(time.Millisecond), 1e3) }

// mebibytes is b in MiB to three decimals (about a KiB, the unit /proc reports).
func mebibytes(b int64) float64 { return roundTo(float64(b)/(1<<20), 1e3) }

func roundTo(v, per float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return math.Round(v*per) / per
}
