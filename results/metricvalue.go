package results

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/suggest"
	"github.com/readbench/readbench/stats"
)

// MetricValue is the figure of r a metric names (package bounds parses
// the names), in the metric's unit. The error wraps bounds.ErrUnknown for a
// class or turn size r does not have, naming the ones it has, and
// bounds.ErrNotMeasured for a figure r did not measure.
func (r *Result) MetricValue(m bounds.Metric) (float64, error) {
	switch {
	case m.Class != "":
		return r.classValue(m)
	case m.Attachments > 0:
		var have []string
		for _, ts := range r.TurnSizes {
			if ts.Attachments == m.Attachments {
				return ts.Latency.StatMs(strings.TrimPrefix(m.Key, "turn.")), nil
			}
			have = append(have, strconv.Itoa(ts.Attachments))
		}
		return 0, fmt.Errorf("%s: %w turn size %d: this result has turns of %s attachments", m.Name, bounds.ErrUnknown, m.Attachments, strings.Join(have, ", "))
	}
	if m.Subscriptions() {
		return r.subscriptionValue(m)
	}
	t := &r.Totals
	switch m.Key {
	case "errors":
		return valueOf(m.Name, PctOf(t.Errors, t.Scheduled), "no read was scheduled")
	case "rate":
		return valueOf(m.Name, t.AchievedRate, "no measured time")
	case "read_rate":
		return valueOf(m.Name, t.ReadsPerS, "no measured time")
	case "asked_rate":
		return t.AskedRate, nil
	case "inflation":
		return valueOf(m.Name, t.Inflation, "no bytes were decoded")
	}
	if name, ok := strings.CutPrefix(m.Key, "outcome."); ok {
		return valueOf(m.Name, PctOf(t.Outcomes[name], t.Scheduled), "no read was scheduled")
	}
	if v, ok, err := r.costValue(m); ok {
		return v, err
	}
	if rest, ok := strings.CutPrefix(m.Key, "auth."); ok {
		return r.authValue(m, rest)
	}
	block, stat, _ := strings.Cut(m.Key, ".")
	return r.latencyBlock(block).StatMs(stat), nil
}

// authValue is an auth.BLOCK.STAT metric (rest is BLOCK.STAT); a run
// without tokens did not measure it.
func (r *Result) authValue(m bounds.Metric, rest string) (float64, error) {
	if r.Auth == nil {
		return 0, fmt.Errorf("%s: %w: the run had no tokens (no OAuth)", m.Name, bounds.ErrNotMeasured)
	}
	block, stat, _ := strings.Cut(rest, ".")
	switch block {
	case "token":
		return r.Auth.TokenRequests.Latency.StatMs(stat), nil
	case "reads_fresh_token":
		return r.Auth.ReadsFreshToken.StatMs(stat), nil
	}
	return r.Auth.ReadsLater.StatMs(stat), nil
}

// latencyBlock is the latency block named by a metric's first part
// ("read", "turn", …); bounds.ParseMetric knows no other names.
func (r *Result) latencyBlock(name string) stats.Latency {
	switch name {
	case "read":
		return r.Read
	case "read_ok":
		return r.ReadOK
	case "turn":
		return r.Turn
	case "service":
		return r.Service
	case "ttfb":
		return r.TTFB
	case "lag":
		return r.Lag
	case "handshake":
		return r.Handshake
	case "first_read":
		return r.FirstRead
	}
	return stats.Latency{}
}

func (r *Result) classValue(m bounds.Metric) (float64, error) {
	c, err := r.findClass(m)
	if err != nil {
		return 0, err
	}
	switch m.Key {
	case "errors":
		return valueOf(m.Name, PctOf(c.Errors, c.Reads), "the class had no reads")
	case "inflation":
		return valueOf(m.Name, c.Inflation, "the class decoded no bytes")
	}
	if name, ok := strings.CutPrefix(m.Key, "outcome."); ok {
		return valueOf(m.Name, PctOf(c.Outcomes[name], c.Reads), "the class had no reads")
	}
	return c.Latency.StatMs(strings.TrimPrefix(m.Key, "read.")), nil
}

func (r *Result) findClass(m bounds.Metric) (*Class, error) {
	var names []string
	for i := range r.Classes {
		if r.Classes[i].Class == m.Class {
			return &r.Classes[i], nil
		}
		names = append(names, r.Classes[i].Class)
	}
	return nil, fmt.Errorf("%s: %w class %q%s", m.Name, bounds.ErrUnknown, m.Class, suggest.DidYouMean(m.Class, names))
}

// costValue is the value of a server_cost or cold_start metric; ok is
// false for other metrics.
func (r *Result) costValue(m bounds.Metric) (v float64, ok bool, err error) {
	sc := &r.ServerCost
	cold := strings.HasPrefix(m.Key, "cold_start.")
	if !cold && !strings.HasPrefix(m.Key, "server_cost.") {
		return 0, false, nil
	}
	if !sc.Available {
		return 0, true, fmt.Errorf("%s: %w in this result (%s)", m.Name, bounds.ErrNotMeasured, sc.Reason)
	}
	if cold && !sc.ColdStart.Available {
		return 0, true, fmt.Errorf("%s: %w in this result (readbench did not spawn the server)", m.Name, bounds.ErrNotMeasured)
	}
	switch m.Key {
	case "server_cost.cpu_per_1000_reads":
		v, err := valueOf(m.Name, sc.CPUMsPer1000Reads, "no read was answered")
		return v, true, err
	case "server_cost.rss_peak":
		return sc.RSS.PeakMiB, true, nil
	case "server_cost.rss_growth":
		return sc.RSS.GrowthMiB, true, nil
	case "cold_start.first_read":
		v, err := valueOf(m.Name, sc.ColdStart.FirstReadMs, "no read was answered")
		return v, true, err
	case "cold_start.handshake":
		return sc.ColdStart.HandshakeMs, true, nil
	default: // cold_start.spawn
		return sc.ColdStart.SpawnToFirstAnswerMs, true, nil
	}
}
