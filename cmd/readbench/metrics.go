package main

import (
	"time"

	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/runner"
	"github.com/urfave/cli/v2"
)

func metricsFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "metrics", Usage: "live metrics: `prometheus-rw=URL` pushes to a Prometheus remote-write receiver, listen=ADDR serves them for scraping at http://ADDR/metrics (repeatable; headers from " + runner.EnvMetricsHeaders + ", basic auth from " + runner.EnvMetricsBasicAuth + "; docs/metrics.md)"},
		&cli.DurationFlag{Name: "metrics-interval", Usage: "time between remote-write pushes (and each push's limit, retries included)", Value: 5 * time.Second},
		&cli.StringFlag{Name: "metrics-buckets", Usage: "the latency histograms' classic buckets, `DURATIONS` separated by commas (default 500µs to 60s)"},
		&cli.BoolFlag{Name: "metrics-native", Usage: "send native histograms too (a receiver that refuses them gets classic buckets only)"},
		&cli.DurationFlag{Name: "metrics-linger", Usage: "keep listen=ADDR open after the run until one more scrape, at most `D`, so the scraper has the final counts"},
	}
}

// startMetrics starts what --metrics asks for (nil when it is not given);
// runID "" labels the command's runs by startAt (metrics.LiveOptions).
func startMetrics(c *cli.Context, startAt time.Time, runID string) (*metrics.Live, error) {
	return runner.StartMetrics(metrics.LiveOptions{
		Specs: c.StringSlice("metrics"), Interval: c.Duration("metrics-interval"), Buckets: c.String("metrics-buckets"),
		Native: c.Bool("metrics-native"), Linger: c.Duration("metrics-linger"), RunID: runID, Start: startAt,
	})
}
