package main

import (
	"os"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/results"
	"github.com/urfave/cli/v2"
)

// Environment variables of remote write: headers ("Name: value", one a
// line) and basic auth ("user:password"), read here and never printed.
const (
	envMetricsHeaders   = "READBENCH_METRICS_HEADERS"
	envMetricsBasicAuth = "READBENCH_METRICS_BASIC_AUTH"
)

func metricsFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "metrics", Usage: "live metrics: `prometheus-rw=URL` pushes to a Prometheus remote-write receiver, listen=ADDR serves them for scraping at http://ADDR/metrics (repeatable; headers from " + envMetricsHeaders + ", basic auth from " + envMetricsBasicAuth + "; docs/metrics.md)"},
		&cli.DurationFlag{Name: "metrics-interval", Usage: "time between remote-write pushes (and each push's limit, retries included)", Value: 5 * time.Second},
		&cli.StringFlag{Name: "metrics-buckets", Usage: "the latency histograms' classic buckets, `DURATIONS` separated by commas (default 500µs to 60s)"},
		&cli.BoolFlag{Name: "metrics-native", Usage: "send native histograms too (a receiver that refuses them gets classic buckets only)"},
		&cli.DurationFlag{Name: "metrics-linger", Usage: "keep listen=ADDR open after the run until one more scrape, at most `D`, so the scraper has the final counts"},
	}
}

// startMetrics starts what --metrics asks for (nil when it is not given);
// runID "" labels the command's runs by startAt (metrics.LiveOptions).
func startMetrics(c *cli.Context, startAt time.Time, runID string) (*metrics.Live, error) {
	return metrics.StartLive(metrics.LiveOptions{
		Specs: c.StringSlice("metrics"), Interval: c.Duration("metrics-interval"), Buckets: c.String("metrics-buckets"),
		Native: c.Bool("metrics-native"), Linger: c.Duration("metrics-linger"),
		Headers: os.Getenv(envMetricsHeaders), BasicAuth: os.Getenv(envMetricsBasicAuth), RunID: runID, Start: startAt,
	})
}

// wireMetrics hands a run's options the live metrics' observers and
// in-flight gauge, chained to the progress already set; part tells the
// runs of one command apart (metrics.Live.Hooks).
func wireMetrics(m *metrics.Live, opts *driver.Options, part metrics.RunLabels) {
	if m != nil {
		opts.Observe, opts.Progress = m.Hooks(part, opts.Progress)
	}
}

// metricsResult is the result's metrics key, after Close (nil without
// --metrics: the key is absent then).
func metricsResult(m *metrics.Live) *results.LiveMetrics {
	if m == nil {
		return nil
	}
	return &results.LiveMetrics{UndeliveredSamples: m.Undelivered()}
}
