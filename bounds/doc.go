// Package bounds is the one grammar of pass/fail bounds: the thresholds of
// a run (`thresholds:`, `run --threshold`), the SLO of `capacity --slo` and
// the bounds of `compare --fail-on` are all parsed here, so a metric name
// or a limit means the same thing wherever it is written (docs/compare.md,
// "The grammar", is the reference).
//
// It is a leaf that knows the metric names and their units, not the
// documents they are measured in: so a workload file's thresholds are
// checked at their line and column before any run, while measuring a
// metric stays with the result (results.Result.MetricValue). Its exported
// API is kept stable: capacity's SLO and workload files are built on it.
package bounds
