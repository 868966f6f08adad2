package runner

import (
	"os"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/stats"
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
// command's runs (Job.Metrics): each job hands its run their observers,
// and the command's one run closes them as it ends, or the command after
// its last run of many (metrics.Live.Close).
func StartMetrics(o metrics.LiveOptions) (*metrics.Live, error) {
	o.Headers, o.BasicAuth = os.Getenv(EnvMetricsHeaders), os.Getenv(EnvMetricsBasicAuth)
	return metrics.StartLive(o)
}

// wireMetrics hands a run's options the live metrics' observers and
// in-flight gauge, chained to the progress already set (a view's), and
// their listeners' series (metrics.Live.Subscriptions); part tells the
// runs of one command apart (metrics.Live.Hooks). Nothing without
// metrics.
func wireMetrics(m *metrics.Live, opts *driver.Options, part metrics.RunLabels) {
	if m != nil {
		var observe func(stats.Ready) (stats.Observer, stats.Observer)
		observe, opts.Progress = m.Hooks(part, opts.Progress)
		opts.Observe = tee(opts.Observe, observe)
		opts.Listened = func(l *stats.Listening) { m.Subscriptions(part.Side, l) }
	}
}

// BarrierRunID is the run id of the live metrics of a shard started by
// --barrier: the shards of one run share it, as with --start-at ("": none).
func BarrierRunID(opts driver.Options) string {
	if opts.Barrier == nil {
		return ""
	}
	return "barrier-" + opts.Barrier.Run
}

// tee hands a run's phases to a's observers and to b's (either nil: the
// other alone): a command's own (ab's windows), the live metrics', the
// --reads file's.
func tee(a, b func(stats.Ready) (stats.Observer, stats.Observer)) func(stats.Ready) (stats.Observer, stats.Observer) {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(r stats.Ready) (stats.Observer, stats.Observer) {
		aw, am := a(r)
		bw, bm := b(r)
		return stats.Tee(aw, bw), stats.Tee(am, bm)
	}
}
