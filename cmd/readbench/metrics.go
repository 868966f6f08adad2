package main

import (
	"fmt"
	"io"
	"os"
	"strings"
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

// liveMetrics is a command's --metrics: the series, and where they go.
type liveMetrics struct {
	reg    *metrics.Registry
	runID  string
	pusher []*metrics.Pusher
	server []*metrics.Server
	linger time.Duration
	// undelivered counts the samples the closed pushers dropped: the
	// result's metrics.undelivered_samples.
	undelivered int64
}

// startMetrics starts what --metrics asks for (nil when it is not given).
func startMetrics(c *cli.Context, startAt time.Time) (*liveMetrics, error) {
	specs := c.StringSlice("metrics")
	if len(specs) == 0 {
		return nil, nil
	}
	o := metrics.Options{Native: c.Bool("metrics-native")}
	if b := c.String("metrics-buckets"); b != "" {
		var err error
		if o.Buckets, err = metrics.ParseBuckets(b); err != nil {
			return nil, err
		}
	}
	headers, err := metrics.ParseHeaders(os.Getenv(envMetricsHeaders))
	if err != nil {
		return nil, err
	}
	m := &liveMetrics{reg: metrics.New(o), runID: metrics.NewRunID(startAt), linger: c.Duration("metrics-linger")}
	for _, spec := range specs {
		kind, value, _ := strings.Cut(spec, "=")
		switch {
		case kind == "prometheus-rw" && value != "":
			p, err := metrics.StartPush(m.reg, metrics.PushOptions{URL: value, Interval: c.Duration("metrics-interval"),
				Headers: headers, BasicAuth: os.Getenv(envMetricsBasicAuth), Native: o.Native})
			if err != nil {
				m.close(io.Discard)
				return nil, err
			}
			m.pusher = append(m.pusher, p)
		case kind == "listen" && value != "":
			s, err := metrics.Listen(m.reg, value)
			if err != nil {
				m.close(io.Discard)
				return nil, err
			}
			m.server = append(m.server, s)
		default:
			m.close(io.Discard)
			return nil, fmt.Errorf("--metrics %q: want prometheus-rw=URL or listen=ADDR", spec)
		}
	}
	return m, nil
}

// wire hands the run's options the observers and the in-flight gauge.
// part tells the runs of one command apart (its Step, or Side and Round;
// zero for readbench run): the rest of the labels come from the run.
func (m *liveMetrics) wire(opts *driver.Options, part metrics.RunLabels) {
	if m == nil {
		return
	}
	run := part
	run.ID = m.runID
	opts.Observe = m.reg.Observer(run)
	opts.Progress = m.reg.Progress(part.Side, opts.Progress)
}

// result is the result's metrics key, after close (nil without
// --metrics: the key is absent then).
func (m *liveMetrics) result() *results.LiveMetrics {
	if m == nil {
		return nil
	}
	return &results.LiveMetrics{UndeliveredSamples: m.undelivered}
}

// ended pushes the counts of one of a command's runs as they ended, before
// the next run replaces them (a scrape endpoint has them until then).
func (m *liveMetrics) ended() {
	if m == nil {
		return
	}
	for _, p := range m.pusher {
		p.Push()
	}
}

// close pushes the final counts, keeps the scrape endpoints for their
// final scrape (--metrics-linger) and says on w what was not delivered.
// It is safe on nil and to call twice.
func (m *liveMetrics) close(w io.Writer) {
	if m == nil {
		return
	}
	m.reg.Idle()
	for _, p := range m.pusher {
		sum := p.Close(10 * time.Second)
		m.undelivered += sum.Dropped
		if s := sum.String(); s != "" {
			fmt.Fprintf(w, "readbench: %s\n", s)
		}
	}
	for _, s := range m.server {
		s.Close(m.linger)
	}
	m.pusher, m.server = nil, nil
}
