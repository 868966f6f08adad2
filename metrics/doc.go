// Package metrics is a run's live metrics: the reads, turns, latencies,
// lag and bytes a run records, as Prometheus series that a dashboard can
// read while the run goes on. What it owns:
//
//   - the series (metrics.go): a Registry of prometheus/client_golang
//     counters, gauges and histograms (classic buckets, configurable,
//     and native ones), fed by a stats.Observer for each phase, so that
//     the series count exactly what the result file will;
//   - the exemplars (exemplar.go): a traced read's trace id, label
//     trace_id, on its latency and service buckets, at most one new
//     exemplar per bucket every exemplarGap, so that tracing every read
//     adds no allocation to most of them;
//   - the labels (labels.go): workload, run id, redacted target, server
//     name and version, shard, and per series class, outcome, turn end
//     and phase;
//   - remote write (remote.go): a pusher that gathers the registry every
//     interval and once at the end, and sends it with the Prometheus
//     project's own remote-write client (protobuf, snappy) from its own
//     goroutines, bounded retries and a bounded queue: a slow or dead
//     endpoint drops samples (counted) and never slows the load;
//   - the scrape endpoint (listen.go): the same registry in the
//     OpenMetrics text format (promhttp; the format that carries
//     exemplars), kept open after the run for
//     a final scrape; ListenGatherer serves any other gatherer the same
//     way (readbench serve's simulated server's counters).
//
// The names and labels are docs/metrics.md; the dashboard reading them is
// deploy/grafana/readbench.json. The driver never imports this package:
// the command hands the driver Registry.Observer as its Options.Observe,
// which the driver calls with a stats.Ready and which returns this
// package's observers. It imports stats and targets (and protocol through
// targets), never any other readbench package.
package metrics
