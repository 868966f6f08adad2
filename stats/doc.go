// Package stats records what a run measured: HDR latency histograms, outcome
// counts, byte counts and the inflation arithmetic. It knows nothing of MCP:
// its Outcome, Shape (shape.go) and ByteCounts are plain vocabulary, the one
// of each from the classifier to the report (the client classifies an
// answer straight into them, the driver adds the outcomes only a run knows
// and records them), so that the numbers can be merged, saved and re-read
// without the protocol code.
// A Recorder records one phase of a run (warmup or measured) and ends in a
// Phase, plain data that results saves and merges. While the run goes on,
// Recorder.Live and Recorder.SecondP99 (live.go) give a live view the
// phase so far, taken once a second under the recorder's lock. A phase of
// a run with tokens (Recorder.EnableAuth) also keeps authorization as a
// cost (auth.go): read latency on a fresh token apart from later reads,
// and the token requests the driver adds, by reason. A Recorder adds a
// read's histogram values in batches (batch.go), which changes no figure.
//
// It also does the policy maths (Advise): the candidate limits priced, the
// recommended deadline and timeout, and every figure that recommendation
// rests on. Numbers only: the sentences that explain it are written by the
// result document (package results) and printed by the reports.
//
// The latency block (latency.go): LatencyStats, the one list of a latency
// summary's figures (the percentiles, the maximum, the mean), and Latency,
// the block Histogram.Export makes of a histogram, which the result
// document saves as it is. The reports, compare, capacity and the metric
// names of bounds enumerate the figures from that list, so a new
// percentile is added once.
//
// And the small-sample tests compare uses when the run is the unit
// (ranktest.go): the Mann–Whitney U test, the Hodges–Lehmann shift and
// its interval, and the prediction interval of one more run.
package stats
