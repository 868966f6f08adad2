package bounds

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/readbench/readbench/internal/suggest"
	"github.com/readbench/readbench/stats"
)

// Unit is the unit a metric is measured in, which decides how a limit is
// written: a duration for Millis, a percentage for Percent, and so on.
type Unit int

// The units of metrics.
const (
	Millis    Unit = iota // latency, written as a duration: 800ms, 1.5s, 250us
	Percent               // a share of scheduled reads: 1%, 0.5%
	PerSecond             // a rate: 45/s, 2700/min, or a bare number per second
	Ratio                 // a plain number: inflation 1.37
	MiB                   // memory: 512MiB, 1GiB
	Count                 // a number of events: 0, 12 (protocol violations)
)

// String is the unit's symbol in verdicts and reports.
func (u Unit) String() string {
	return [...]string{"ms", "%", "/s", "x", "MiB", "count"}[u]
}

// ErrUnknown is wrapped by the error for a class or turn size that the
// result (or workload) does not have: a usage error, never a pass.
var ErrUnknown = errors.New("unknown")

// ErrNotMeasured is wrapped by the error for a metric this result did not
// measure (server cost of an HTTP target without --server-pid): a bound
// on it cannot pass.
var ErrNotMeasured = errors.New("not measured")

// Metric is a parsed metric name. Class is set for class.NAME.… metrics,
// Attachments for turn_size.N.…; Key is the metric inside that scope
// ("read.p99", "errors").
type Metric struct {
	Name        string // canonical text, as it parses back
	Class       string
	Attachments int
	Key         string
	Unit        Unit
}

// latencyBlocks and the stats' names (stats.LatencyStatNames, the one
// list of a latency block's figures) make the latency metrics BLOCK.STAT.
var latencyBlocks = []string{"read", "read_ok", "turn", "service", "ttfb", "lag", "handshake", "first_read"}

// authBlocks are the latency blocks of a run with tokens, as
// auth.BLOCK.STAT metrics (auth.token.p99: token requests; reads on a
// fresh token and later).
var authBlocks = []string{"token", "reads_fresh_token", "reads_later"}

// plainMetrics are the metrics of the run as a whole (besides BLOCK.STAT
// and outcome.NAME).
var plainMetrics = map[string]Unit{
	"errors": Percent, "rate": PerSecond, "read_rate": PerSecond, "asked_rate": PerSecond,
	"inflation":                      Ratio,
	"server_cost.cpu_per_1000_reads": Millis, "server_cost.rss_peak": MiB, "server_cost.rss_growth": MiB,
	"cold_start.first_read": Millis, "cold_start.handshake": Millis, "cold_start.spawn": Millis,
	"notify.missed": Percent, "notify.violations": Count, "notify.duplicates": Count, "streams.refused": Percent,
}

// classKeys are the metrics of one class.
func classKeys() []string {
	keys := []string{"errors", "inflation"}
	for _, s := range stats.LatencyStatNames() {
		keys = append(keys, "read."+s)
	}
	for i := stats.Outcome(0); i < stats.NumOutcomes; i++ {
		keys = append(keys, "outcome."+i.String())
	}
	return keys
}

// Names lists every metric name outside a class or turn size scope, with
// the scoped forms as patterns: the list a misspelt metric is answered with.
func Names() []string {
	var names []string
	for _, b := range append(slices.Clone(latencyBlocks), subscriptionBlocks...) {
		for _, s := range stats.LatencyStatNames() {
			names = append(names, b+"."+s)
		}
	}
	for i := stats.Outcome(0); i < stats.NumOutcomes; i++ {
		names = append(names, "outcome."+i.String())
	}
	names = append(names, slices.Sorted(maps.Keys(plainMetrics))...)
	for _, b := range authBlocks {
		names = append(names, "auth."+b+".p99")
	}
	return append(names, "turn_size.N.p99", "class.NAME.read.p99", "class.NAME.errors",
		"class.NAME.outcome.NAME", "class.NAME.inflation")
}

// topUnit is the unit of a metric outside any scope, false when unknown.
func topUnit(key string) (Unit, bool) {
	if u, ok := plainMetrics[key]; ok {
		return u, true
	}
	if name, ok := strings.CutPrefix(key, "outcome."); ok {
		_, known := stats.ParseOutcome(name)
		return Percent, known
	}
	if rest, ok := strings.CutPrefix(key, "auth."); ok {
		block, stat, ok := strings.Cut(rest, ".")
		return Millis, ok && slices.Contains(authBlocks, block) && slices.Contains(stats.LatencyStatNames(), stat)
	}
	block, stat, ok := strings.Cut(key, ".")
	if ok && (slices.Contains(latencyBlocks, block) || slices.Contains(subscriptionBlocks, block)) && slices.Contains(stats.LatencyStatNames(), stat) {
		return Millis, true
	}
	return 0, false
}

// ParseMetric parses a metric name (see the package doc). It knows every
// name but not the classes or turn sizes of a result: those are checked by
// CheckClasses against a workload, and by results.Result.MetricValue
// against a result.
func ParseMetric(s string) (Metric, error) {
	return parseMetric(s, s, 0)
}

// parseMetric parses name, which starts at byte off of input (for columns).
func parseMetric(input, name string, off int) (Metric, error) {
	if name == "" {
		return Metric{}, errorAt(input, off, "want a metric, such as turn.p99 or errors")
	}
	if rest, ok := strings.CutPrefix(name, "class."); ok {
		for _, k := range classKeys() {
			if cls, ok := strings.CutSuffix(rest, "."+k); ok && cls != "" {
				u := Millis
				switch {
				case k == "errors" || strings.HasPrefix(k, "outcome."):
					u = Percent
				case k == "inflation":
					u = Ratio
				}
				return Metric{Name: name, Class: cls, Key: k, Unit: u}, nil
			}
		}
		return Metric{}, errorAt(input, off, fmt.Sprintf("unknown class metric %q: want class.NAME. followed by one of: %s",
			name, strings.Join(classKeys(), ", ")))
	}
	if rest, ok := strings.CutPrefix(name, "turn_size."); ok {
		n, stat, _ := strings.Cut(rest, ".")
		k, err := strconv.Atoi(n)
		if err != nil || k < 1 || strconv.Itoa(k) != n {
			return Metric{}, errorAt(input, off+len("turn_size."), fmt.Sprintf("turn_size.N: want N a number of attachments (1, 2, …), not %q", n))
		}
		if !slices.Contains(stats.LatencyStatNames(), stat) {
			return Metric{}, errorAt(input, off+len("turn_size.")+len(n)+1, fmt.Sprintf("turn_size.%d.%s: want one of %s", k, stat, strings.Join(stats.LatencyStatNames(), ", ")))
		}
		return Metric{Name: name, Attachments: k, Key: "turn." + stat, Unit: Millis}, nil
	}
	u, ok := topUnit(name)
	if !ok {
		return Metric{}, errorAt(input, off, fmt.Sprintf("unknown metric %q%s", name, suggest.DidYouMean(name, Names())))
	}
	return Metric{Name: name, Key: name, Unit: u}, nil
}

// CheckClasses answers a metric naming a class that is not in classes
// (the workload's mix) with an error wrapping ErrUnknown, naming the
// valid ones: checked before a run, so a misspelt class never runs.
func (m Metric) CheckClasses(classes []string) error {
	if m.Class == "" || slices.Contains(classes, m.Class) {
		return nil
	}
	return fmt.Errorf("%s: %w class %q%s", m.Name, ErrUnknown, m.Class, suggest.DidYouMean(m.Class, classes))
}
