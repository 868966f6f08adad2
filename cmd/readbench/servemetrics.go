package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/simserver"
)

// servedCollector exports the simulated server's read counters
// (simserver.Stats) as Prometheus series, read at each scrape: the
// server's side of a run, beside the run's own series (docs/metrics.md).
type servedCollector struct {
	stats                                     func() simserver.Stats
	reads, answers, cancelled, late, inFlight *prometheus.Desc
	bytes                                     *prometheus.Desc
	traces, traceErrors                       *prometheus.Desc
}

func newServedCollector(stats func() simserver.Stats, name, version string) *servedCollector {
	l := prometheus.Labels{"server_name": name, "server_version": version}
	d := func(n, help string, labels ...string) *prometheus.Desc { return prometheus.NewDesc(n, help, labels, l) }
	return &servedCollector{
		stats:     stats,
		reads:     d("readbench_sim_reads_total", "resources/read requests received."),
		answers:   d("readbench_sim_answers_total", "Read answers sent, by outcome (result or error) and JSON-RPC error code.", "outcome", "code"),
		cancelled: d("readbench_sim_reads_cancelled_total", "Reads whose request was cancelled before the answer."),
		late:      d("readbench_sim_reads_late_total", "Cancelled reads answered anyway (honor_cancel=false)."),
		inFlight:  d("readbench_sim_reads_in_flight", "Reads being handled now."),
		bytes:     d("readbench_sim_answer_bytes_total", "Bytes of the read answers sent (their JSON-RPC messages)."),
		// The trace series say whether the W3C trace context of the reads
		// arrives intact by each route (docs/measurement.md, trace context).
		traces:      d("readbench_sim_traces_total", "Reads that carried a valid W3C traceparent, by route: the HTTP header or params._meta (a read with both counts in both).", "route"),
		traceErrors: d("readbench_sim_trace_errors_total", "Trace context problems: traceparent values present but not valid (invalid), reads whose header and _meta disagree (mismatch).", "reason"),
	}
}

// Describe implements prometheus.Collector.
func (c *servedCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.reads, c.answers, c.cancelled, c.late, c.inFlight, c.bytes, c.traces, c.traceErrors} {
		ch <- d
	}
}

// Collect implements prometheus.Collector: one snapshot of the counters.
func (c *servedCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	counter(c.reads, st.Reads)
	counter(c.cancelled, st.Cancelled)
	counter(c.late, st.Late)
	counter(c.bytes, st.Bytes)
	ch <- prometheus.MustNewConstMetric(c.inFlight, prometheus.GaugeValue, float64(st.InFlight))
	counter(c.traces, st.Traces.Header, "header")
	counter(c.traces, st.Traces.Meta, "meta")
	counter(c.traceErrors, st.Traces.Invalid, "invalid")
	counter(c.traceErrors, st.Traces.Mismatch, "mismatch")
	for code, n := range st.Codes {
		if code == 0 {
			counter(c.answers, n, "result", "")
		} else {
			counter(c.answers, n, "error", strconv.Itoa(code))
		}
	}
}

// serveMetrics starts serve's --metrics listen=ADDR (nil when not given);
// the caller closes it when the server ends.
func serveMetrics(spec string, srv *simserver.Server, o simserver.Options, log io.Writer) (*metrics.Server, error) {
	if spec == "" {
		return nil, nil
	}
	kind, addr, _ := strings.Cut(spec, "=")
	if kind != "listen" || addr == "" {
		return nil, fmt.Errorf("serve: --metrics %q: want listen=ADDR (the server's side is scraped, not pushed)", spec)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(newServedCollector(srv.Stats, o.Name, o.Version))
	s, err := metrics.ListenGatherer(reg, addr)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(log, "readbench serve: metrics on http://%s/metrics\n", s.Addr())
	return s, nil
}
