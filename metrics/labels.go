package metrics

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/readbench/readbench/targets"
)

// RunLabels is what labels every series of one run: set once the run knows its
// server (stats.Ready), the same on every series so that a dashboard can
// pick a run, a server or a shard.
type RunLabels struct {
	Workload      string
	ID            string // the run id (NewRunID): the same on every shard of one run
	Target        string // the target's one-string form; redacted here
	ServerName    string
	ServerVersion string
	Shard         string // the segment, k/n ("1/1": the whole run)

	// A command that makes several runs under one run id (capacity's
	// steps, ab's rounds) tells them apart, so that each run's counters
	// are series of their own rather than resets of the last run's: Step
	// is a capacity search's step (its step-NN.json), Side and Round an
	// ab run's side (base, new) and round. An empty one is no label: a
	// plain run's series carry none of them.
	Step, Side, Round string
}

// labels returns the run's constant labels. The target is redacted
// (targets.RedactSecrets): a password in a URL never reaches a dashboard.
func (r RunLabels) labels() prometheus.Labels {
	l := prometheus.Labels{
		"workload":       r.Workload,
		"run_id":         r.ID,
		"target":         targets.RedactSecrets(r.Target),
		"server_name":    r.ServerName,
		"server_version": r.ServerVersion,
		"shard":          r.Shard,
	}
	for name, v := range map[string]string{"step": r.Step, "side": r.Side, "round": r.Round} {
		if v != "" {
			l[name] = v
		}
	}
	return l
}

// NewRunID returns a run id: the moment the schedule starts (a sharded
// run's --start-at, so that every shard of it has the same id) or, when
// start is zero, now, with a random suffix so that two runs started in
// one second differ.
func NewRunID(start time.Time) string {
	if !start.IsZero() {
		return start.UTC().Format("20060102T150405.000Z")
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// Phase label values: the warmup's samples are kept apart from the
// measured phase's, whose totals are the result file's.
const (
	PhaseWarmup   = "warmup"
	PhaseMeasured = "measured"
)

// ParseHeaders reads READBENCH_METRICS_HEADERS: one `Name: value` per
// line (a value may hold commas). Empty lines are skipped.
func ParseHeaders(s string) (map[string]string, error) {
	h := map[string]string{}
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("READBENCH_METRICS_HEADERS line %d: want 'Name: value'", i+1)
		}
		h[name] = strings.TrimSpace(value)
	}
	return h, nil
}

// headerNames lists h's names, sorted, for messages: values are never
// printed.
func headerNames(h map[string]string) []string {
	return slices.Sorted(maps.Keys(h))
}
