package runner

import (
	"os"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/results"
)

// Environment variables of remote write: headers ("Name: value", one a
// line) and basic auth ("user:password"), read by StartMetrics and never
// printed: a secret on the command line would show in every process list.
const (
	EnvMetricsHeaders   = "READBENCH_METRICS_HEADERS"
	EnvMetricsBasicAuth = "READBENCH_METRICS_BASIC_AUTH"
)

// StartMetrics starts the live metrics o asks for (--metrics and its
// companions; nil when it asks for none), remote write's headers and
// basic auth taken from the environment. The metrics are an option of a
// command's runs: WireMetrics hands each run their observers, the command
// closes them once its last run ended (metrics.Live.Close) and MetricsKey
// is then the result's metrics key.
func StartMetrics(o metrics.LiveOptions) (*metrics.Live, error) {
	o.Headers, o.BasicAuth = os.Getenv(EnvMetricsHeaders), os.Getenv(EnvMetricsBasicAuth)
	return metrics.StartLive(o)
}

// WireMetrics hands a run's options the live metrics' observers and
// in-flight gauge, chained to the progress already set (a view's); part
// tells the runs of one command apart (metrics.Live.Hooks). Nothing
// without metrics.
func WireMetrics(m *metrics.Live, opts *driver.Options, part metrics.RunLabels) {
	if m != nil {
		opts.Observe, opts.Progress = m.Hooks(part, opts.Progress)
	}
}

// MetricsKey is the result's metrics key, after Close (nil without
// --metrics: the key is absent then).
func MetricsKey(m *metrics.Live) *results.LiveMetrics {
	if m == nil {
		return nil
	}
	return &results.LiveMetrics{UndeliveredSamples: m.Undelivered()}
}

// BarrierRunID is the run id of the live metrics of a shard started by
// --barrier: the shards of one run share it, as with --start-at ("": none).
func BarrierRunID(opts driver.Options) string {
	if opts.Barrier == nil {
		return ""
	}
	return "barrier-" + opts.Barrier.Run
}
