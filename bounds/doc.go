// Package bounds is the one grammar of pass/fail bounds: the thresholds of
// a run (`thresholds:` in a workload, `run --threshold`), the SLO of
// `capacity --slo` and the bounds of `compare --fail-on` all name their
// metrics, and are parsed, here, so a bound means the same thing wherever
// it is written (docs/compare.md is the reference).
//
// It is a leaf: it knows the metric names and their units, not the
// documents they are measured in. So package workload parses a file's
// thresholds with it, at the file's line and column, and package results
// (which never imports workload) measures a metric in a result
// (Result.MetricValue) and holds a result to thresholds and compare bounds
// (results.Evaluate, compare.CheckBounds). It imports only units, stats
// (the outcome names and the latency stats, stats.LatencyStats) and internal/suggest; never results, workload,
// report, driver or client.
//
// A metric names one figure of a result document (results.Result):
//
//	read.p99  read_ok.p50  turn.max  service.mean  ttfb.p90  lag.p999
//	errors                 share of scheduled reads whose outcome is an error, in %
//	outcome.NAME           share of scheduled reads with that outcome, in %
//	rate                   achieved turns per second (turns that started)
//	read_rate  asked_rate  reads per second sent; turns per second asked
//	inflation              wire bytes / disk bytes
//	turn_size.N.p99        turn latency of turns with N attachments
//	class.NAME.read.p99    class.NAME.errors  class.NAME.outcome.NAME  class.NAME.inflation
//	server_cost.cpu_per_1000_reads  server_cost.rss_peak  server_cost.rss_growth
//	cold_start.first_read  cold_start.handshake  cold_start.spawn
//	auth.token.p99  auth.reads_fresh_token.p99  auth.reads_later.p99  (a run with tokens: OAuth)
//
// A threshold holds a run to a limit: `turn.p99<800ms`, `errors<=1%`,
// `rate>45/s`. A compare bound limits the change from a base result to a
// new one: `read.p99=+10%` (relative), `turn.p99=+50ms` (absolute, in the
// metric's unit), `errors=+0.5pp` (percentage points), `rate=-5%` (a drop:
// the sign says which way is worse). Lists are comma-separated.
//
// Errors are *Error values that name the column of the offending
// character; a misspelt metric is answered with the closest valid one or
// the list of valid ones. An unknown class or turn size is known only
// against a result (or a workload): results.Result.MetricValue and
// CheckClasses answer it with an error wrapping ErrUnknown that names the
// valid ones.
//
// The API (Metric, ParseMetric, Names, Threshold, ParseThreshold(s),
// ParseThresholdPair, Bound, ParseBound(s), Error, ErrUnknown,
// ErrNotMeasured, Unit) is kept stable: capacity's SLO and workload files
// are built on it.
package bounds
