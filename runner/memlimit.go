package runner

import (
	"runtime/debug"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// What a run over Streamable HTTP is allowed to hold: the
// process itself, and at most 8 KiB per session and 16 KiB per read in
// flight (client.BenchmarkMemoryInFlight and scripts/scale-memory.sh
// measure both; the heap and stacks in use are about 11.7 KiB per read in
// flight and 4 KiB per idle session, so the limit leaves the collector a
// third to a half again as much for garbage), and 16 KiB per listen
// stream (client.BenchmarkIdleListenStreams and scripts/scale-listen.sh:
// about 10.4 KiB of heap and stack per idle stream, and each notification
// a stream takes makes garbage); a listener is a session. A run holding
// few reads gets memFloor, above what any of them holds live (the 40 MiB
// blob case peaks at 25-41 MiB of RSS): the limit does not bind there.
const (
	memFloor      = 64 << 20
	memBase       = 16 << 20
	memPerSession = 8 << 10
	memPerRead    = 16 << 10
	memPerStream  = 16 << 10
	// memPerLegacyListener is a listener of the handshake era: a session
	// of its own (its handshake's state, two connections: its requests'
	// and its standalone GET stream's) and the goroutine reading that
	// stream (client.BenchmarkLegacyListenSessions: about 9.6 KB of live
	// heap and 4 KiB of stack a session; the run adds its accounting of
	// the subscription). The budget of a session and a stream (24 KiB)
	// let 10,000 of them take the run past 256 MiB (scripts/scale-listen.sh).
	memPerLegacyListener = 20 << 10
)

// legacyEra reports whether a workload's protocol setting is a version
// of the handshake era (not "auto", whose era the server decides).
func legacyEra(version string) bool {
	return version != "" && version != workload.DefaultProtocol && !protocol.IsModern(version)
}

// memoryLimit is the soft memory limit of a run of w (debug.SetMemoryLimit),
// 0 for none: what the run is asked to hold (its reads in flight and its
// listen streams), at the budget above, for a
// Streamable HTTP target, whose answers are scanned as they stream in and
// never held whole, so that a read in flight costs the same whatever it
// reads. The garbage collector's own goal is twice what is live, stacks
// included; at 10,000 reads in flight that alone overshoots 256 MiB on
// some runs. With the limit the collector runs earlier once the heap
// nears it, and never otherwise: a run that holds less pays nothing.
// Other targets (a stdio child's pipes, the legacy SSE stream) hold what
// this budget does not count, and get no limit.
func memoryLimit(w *workload.Workload) int64 {
	if w.Target.Kind != targets.HTTP {
		return 0
	}
	turns := w.Load.MaxInFlight
	if w.Load.Model == workload.ModelClosed {
		turns = w.Load.Concurrency
	}
	if turns <= 0 {
		return 0 // no bound on the reads in flight: nothing to size a limit from
	}
	reads := int64(turns) * int64(max(w.Turn.Attachments.Max(), 1))
	var listening int64
	if l := w.Listen; l != nil {
		listeners := int64(max(l.Listeners, 1))
		if legacyEra(w.Protocol) {
			// A legacy listener is a session with one subscription, its
			// standalone stream (listen.streams is not used).
			listening = listeners * memPerLegacyListener
		} else {
			listening = listeners * (memPerSession + int64(max(l.Streams, 1))*memPerStream)
		}
	}
	return max(memFloor, memBase+int64(max(w.Sessions, 1))*memPerSession+reads*memPerRead+listening)
}

// setMemoryLimit sets w's soft memory limit (memoryLimit) for the run,
// unless the user set one with GOMEMLIMIT, which getenv reads. It returns
// the limit it set (0: none) and the function that puts the previous one
// back when the run ends.
func setMemoryLimit(w *workload.Workload, getenv func(string) string) (int64, func()) {
	limit := memoryLimit(w)
	if limit == 0 || getenv("GOMEMLIMIT") != "" {
		return 0, func() {}
	}
	prev := debug.SetMemoryLimit(limit)
	return limit, func() { debug.SetMemoryLimit(prev) }
}
