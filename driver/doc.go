// Package driver is the load: it fires resources/read turns at an MCP
// target on a schedule (the pacer's, or an explicit one for replay) and
// records each read into the run's phases. It exists so that one place
// decides when a turn starts and how it ends: latency runs from each
// turn's intended start, so a stalled server or generator cannot hide
// behind coordinated omission, and every read gets exactly one outcome
// (outcomeOf), so scheduled = sum of outcomes.
//
// How a document is read and what an answer is belong to package
// client, what the numbers mean to docs/measurement.md, and what becomes
// of a run's result (saved, judged) to package runner; the README's
// layout table says what each package may import.
//
// Words with one meaning each, here and in the packages around it: a run
// is one execution of a workload, recorded in two phases (warmup and
// measured, each a stats.Phase); a segment is one shard's share of a run
// (--segment k/n, workload.Segment, the result's segment key) and nothing
// else; a stage is a piece of the load as the workload file writes it
// (load.stages), a stretch the pacer's piece of the schedule with a rate
// that is constant or linear (the warmup, then each stage); a part is one
// request of a ranged read (a read-tool call or a Range GET); the
// simulated server lays a document out in pieces. A run ends in
// Measurements, which become a results.Result; a check ends in
// contract.Findings, which become a results.CheckDocument.
package driver
