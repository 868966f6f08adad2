// Package units holds the units of a workload and of the simulated
// server's sim: URIs: byte sizes, rates, durations, and fixed values or
// distributions of sizes and durations, each with an exact parser and a
// canonical text that reads back to the same value (docs/workload.md,
// "Units and syntax", is the grammar).
//
// It exists so that the server under test need not depend on the client's
// file format: the workload package and the simulated server (which reads
// sizes and delays from its URIs) both import units, and neither imports
// the other. It sits at the bottom of the dependency graph, below
// workload, simserver and results, and must stay there.
package units
