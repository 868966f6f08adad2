package report

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The freshness loop (results.Subscriptions) in the markdown report, the
// HTML page and JUnit: the terminal report's rows and lines
// (subscriptionRows, subscriptionFields), the page's fan-out chart, and
// in JUnit one case per property of the loop. A run without listeners
// shows none of it.

// mdSubscriptions writes the markdown report's subscriptions section.
func mdSubscriptions(b *bytes.Buffer, r *results.Result) {
	s := r.Subscriptions
	if s == nil {
		return
	}
	mdLatencyBlock(b, "Subscriptions", subscriptionsNote, subscriptionRows(s), subscriptionFields(s))
	if fan := fanoutRows(s); len(fan) > 0 {
		var fr [][]string
		for _, row := range fan {
			fr = append(fr, mdLatencyRow(row.name, row.l))
		}
		h := latencyHeader("listeners", true)
		b.WriteString("Notification latency by the listeners subscribed to the changed URI:\n\n")
		mdTable(b, mdAlign(h), h, fr)
	}
}

// subscriptionsOverTime says what the page cannot draw over time for a
// result written before readbench kept the freshness loop per second:
// its counts are totals of the run only.
const subscriptionsOverTime = "Over time: this result keeps changes, notifications and re-reads as totals of the run, not per second " +
	"(it was written before readbench kept them per second), so no timeline of them is drawn; the re-reads are among the reads " +
	"per second of the Timeline section. Run means: "

// subscriptionsHTMLSection is the page's subscriptions section; ok is
// false without listeners.
func subscriptionsHTMLSection(r *results.Result, suffix string) (htmlSection, bool) {
	s := r.Subscriptions
	if s == nil {
		return htmlSection{}, false
	}
	t := htmlTable{Class: "latency", Left: 1, Header: latencyHeader("", true)}
	for _, row := range subscriptionRows(s) {
		t.Rows = append(t.Rows, latencyRow(row.name, row.l))
	}
	sec := htmlSection{Kind: "subscriptions", ID: "subscriptions" + suffix, Title: "Subscriptions",
		Notes:  []string{subscriptionsNote},
		Fields: printableFields(subscriptionFields(s)), Tables: []htmlTable{t}}
	if fan := fanoutRows(s); len(fan) > 0 {
		sec.Charts = []template.HTML{fanoutChart("fanout"+suffix, fan)}
	}
	if chart, ok := subscriptionsTimelineChart(r, "subscriptions-timeline"+suffix); ok {
		sec.Charts = append(sec.Charts, chart)
	} else {
		sec.Notes = append(sec.Notes, subscriptionsOverTime+runMeans(r)+".")
	}
	return sec, true
}

// runMeans are the changes, notifications and re-reads per second of the
// measured run, for the page's note on what is not drawn over time.
func runMeans(r *results.Result) string {
	s, secs := r.Subscriptions, r.Totals.MeasuredS
	if secs <= 0 {
		return "none (no measured time)"
	}
	per := func(n int64) string { return numfmt.Sig3(float64(n)/secs) + "/s" }
	return fmt.Sprintf("changes %s, notifications %s, re-reads %s", per(s.Changes.Made), per(s.Notifications.Received), per(s.Rereads.Made))
}

// fanoutRows are the notification latency rows by listener count, named
// by their bucket ("11-100").
func fanoutRows(s *results.Subscriptions) []namedLatency {
	var out []namedLatency
	for _, b := range s.NotifyByListeners {
		if b.Latency.Count > 0 {
			out = append(out, namedLatency{name: b.Listeners, l: b.Latency})
		}
	}
	return out
}

// fanoutChart draws the notification p50 and p99 for each listener-count
// bucket: how the cost of telling a change grows with the listeners it
// goes to.
func fanoutChart(id string, rows []namedLatency) template.HTML {
	cats := make([]string, 0, len(rows))
	p50, p99 := series{name: "notify p50"}, series{name: "notify p99"}
	for i, row := range rows {
		cats = append(cats, row.name)
		p50.pts = append(p50.pts, [2]float64{float64(i), row.l.P50Ms})
		p99.pts = append(p99.pts, [2]float64{float64(i), row.l.P99Ms})
	}
	return barChart(id, "fanout", "Notification latency by listeners subscribed to the changed URI: p50 and p99",
		"listeners subscribed to the changed URI", "notification latency (ms)", cats, []series{p50, p99}, false, numfmt.Sig3)
}

// junitSubscriptions are the cases of the freshness loop: the
// notification accounting, missed notifications, protocol violations and
// refusals. What went wrong is a skipped case with its count, not a
// failure: the exit status is the reads' and the thresholds' (a suite
// fails exactly when the exit does; gate on notify.missed,
// notify.violations or streams.refused to fail on them), and never a
// green pass.
func junitSubscriptions(r *results.Result) []junitCase {
	s := r.Subscriptions
	if s == nil {
		return nil
	}
	n, st := s.Notifications, s.Streams
	refused := st.Refused.LimitReached + st.Refused.HTTP + st.Refused.RPC
	refusal := problemIf(refused > 0, "subscriptions refused", "streams.refused")
	if refusal == "" && st.Failed > 0 {
		refusal = "subscriptions never acknowledged (a transport error, or no acknowledgement in time)"
	}
	identity := ""
	if !n.IdentityOK {
		identity = "the accounting does not add up: readbench lost count of notifications"
	}
	cases := []struct {
		name, out, problem string
	}{
		{"notification accounting", notifyIdentityText(s), identity},
		{"missed notifications", fmt.Sprintf("%s of %s expected missed", numfmt.Count(n.Missed), numfmt.Count(n.Expected)),
			problemIf(n.Missed > 0, "notifications missed", "notify.missed")},
		{"protocol violations", fmt.Sprintf("%s violations; %s duplicates", numfmt.Count(s.Violations.Total()), numfmt.Count(n.Duplicates)),
			problemIf(s.Violations.Total() > 0, "protocol violations: "+violationsText(s.Violations), "notify.violations")},
		{"refusals", fmt.Sprintf("%s of %s subscriptions opened; %s refused, %s never acknowledged", numfmt.Count(st.Opened),
			numfmt.Count(st.Asked), numfmt.Count(refused), numfmt.Count(st.Failed)), refusal},
	}
	var out []junitCase
	for _, c := range cases {
		jc := junitCase{Name: "subscriptions: " + c.name, Classname: "readbench.subscriptions", Time: "0", SystemOut: printable(c.out)}
		switch {
		case st.NotApplicable > 0 && st.Opened == 0:
			jc.Skipped = &junitSkipped{Message: "not applicable: the server does not offer resource subscriptions"}
		case c.problem != "":
			jc.Skipped = &junitSkipped{Message: markWarn + " " + printable(c.problem+": "+c.out)}
		}
		out = append(out, jc)
	}
	return out
}

// problemIf is what a case says went wrong when bad, with the threshold
// that would gate on it.
func problemIf(bad bool, what, metric string) string {
	if !bad {
		return ""
	}
	return what + " (not held to a threshold: set " + metric + " to fail on it)"
}
