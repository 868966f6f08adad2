// Package units holds the units of a workload and of the simulated server's
// sim: URIs: byte sizes ("8KiB", "1.5MiB", "3MB"), rates ("50/s",
// "3000/min"), durations ("800ms"), and fixed values or distributions of
// sizes and durations ("lognormal(8KiB, 200KiB)", "uniform(5ms, 10ms)"),
// each with an exact parser, a canonical text that reads back to the same
// value (Rate, Duration and Dist marshal as it), and the sampling of a
// distribution.
//
// It exists so that the server under test need not depend on the client's
// file format: the workload package (the YAML a user writes) and the
// simulated server (which reads sizes and delays from its URIs) both import
// units, and neither imports the other. The grammar of these texts is
// described in docs/workload.md.
//
// It imports no readbench package but internal/suggest (the "did you mean"
// of a misspelt function name), and must never import more: it sits at the
// bottom of the dependency graph, below workload, simserver and results.
package units
