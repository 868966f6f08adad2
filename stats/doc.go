// Package stats records what a run measured, and does the arithmetic on
// it: HDR latency histograms and the latency block they export, outcome
// and byte counts, the policy maths of the advice, and the small-sample
// tests compare uses.
//
// It knows nothing of MCP, and sits at the bottom of the graph: its
// Outcome, Shape and ByteCounts are the one vocabulary from the classifier
// to the report (the client classifies an answer straight into them, the
// driver adds what only a run knows), so a run's numbers can be merged,
// saved and re-read without the protocol code. It computes numbers only:
// the sentences that explain them are written by package results.
package stats
