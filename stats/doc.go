// Package stats records what a run measured: HDR latency histograms, outcome
// counts, byte counts and the inflation arithmetic. It knows nothing of MCP
// (the driver translates protocol events into these plain records) so that
// the numbers can be merged, saved and re-read without the protocol code.
package stats
