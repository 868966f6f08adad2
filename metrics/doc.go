// Package metrics is a run's live metrics: what a run records, as
// Prometheus series (remote write and a scrape endpoint) that a dashboard
// reads while the run goes on. docs/metrics.md names the series and their
// labels and says what a push does when its endpoint is slow or gone.
//
// It stands apart from the driver, which never imports it: a run's job
// (runner.Job.Metrics) hands the driver an observer for each phase's
// recorder (stats.Observer),
// so the series count exactly what the result file will, and a slow or
// dead endpoint loses samples rather than slowing the load.
package metrics
