package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// listened is the clean run's result with listeners: six of them, two
// streams each, 480 notifications expected; missed of them never told,
// violations wrong subscription ids, and fan-out rows when fan.
func listened(t testing.TB, missed, violations int64, fan bool) *results.Result {
	t.Helper()
	r := fixture(t, false)
	r.Subscriptions = subscriptionsBlock(missed, violations, fan)
	return r
}

// subscriptionsBlock is listened's subscriptions block.
func subscriptionsBlock(missed, violations int64, fan bool) *results.Subscriptions {
	lat := func(n int64, p50, p99 float64) stats.Latency {
		return stats.Latency{Count: n, P50Ms: p50, P90Ms: p99 / 2, P99Ms: p99, P999Ms: p99, MaxMs: p99, MeanMs: p50}
	}
	s := &results.Subscriptions{
		Mode:      stats.ModeListen,
		Listeners: stats.ListenerCounts{Asked: 6, Connected: 6, Listening: 6},
		Streams:   results.Streams{StreamCounts: stats.StreamCounts{Asked: 12, Opened: 12, Ended: stats.StreamEndings{Closed: 12}}},
		Changes:   results.Changes{ChangeCounts: stats.ChangeCounts{Via: "tool", Rate: 10}, Made: 40, Lag: lat(40, 0.1, 55)},
		Notifications: results.Notifications{Received: 480 - missed, Expected: 480, Notified: 480 - missed, Missed: missed,
			IdentityOK: true},
		Violations: stats.Violations{WrongSubscriptionID: violations},
		Ack:        lat(12, 0.9, 14.1), Notify: lat(480-missed, 1.67, 24.8), Spread: lat(40, 1.4, 4.05),
		Rereads: stats.RereadCounts{Class: "reread", Made: 480, WouldSkipScope: 320},
	}
	if fan {
		s.NotifyByListeners = []results.ListenersNotify{
			{Listeners: "2-10", Min: 2, Max: 10, Latency: lat(400, 1.5, 20)},
			{Listeners: "11-100", Min: 11, Max: 100, Latency: lat(80, 3.25, 61.5)},
		}
	}
	return s
}

// TestSubscriptionsInEveryView: the terminal report (brief and full),
// markdown, the HTML page and JUnit show a
// run's freshness loop (its rows, its accounting, what went wrong) and
// show nothing of it for a run without listeners.
func TestSubscriptionsInEveryView(t *testing.T) {
	views := []struct {
		name  string
		write func(*bytes.Buffer, *results.Result) error
		want  []string // in a run with listeners, one missed, two violations
	}{
		{"table", func(b *bytes.Buffer, r *results.Result) error { return WriteTable(b, r) },
			[]string{"p50 1.67ms p99 24.8ms", "expected 480 = notified 479", "wrong-subscription-id 2"}},
		{"full table", func(b *bytes.Buffer, r *results.Result) error { return WriteFullTable(b, r) },
			[]string{"\nsubscriptions\n", "change lag", "480 made (class reread)", "320 sent a cache by cacheScope would answer", "wrong-subscription-id 2"}},
		{"markdown", func(b *bytes.Buffer, r *results.Result) error { return WriteMarkdown(b, r) },
			[]string{"### Subscriptions", "| notify | 479 | 1.67ms", "expected 480 = notified 479 + coalesced 0 + missed 1 ✓",
				"wrong-subscription-id 2", "| 11-100 | 80 | 3.25ms", "0 skipped as cached by cacheScope, 320 sent a cache by cacheScope would answer"}},
		{"html", func(b *bytes.Buffer, r *results.Result) error { return WriteHTML(b, []*results.Result{r}) },
			[]string{`data-section="subscriptions"`, `data-chart="fanout"`, "11-100", "expected 480 = notified 479",
				"not per second", "Run means: changes ", "320 sent a cache by cacheScope would answer"}},
		{"junit", func(b *bytes.Buffer, r *results.Result) error { return WriteJUnit(b, r) },
			[]string{`name="subscriptions: missed notifications"`, "1 of 480 expected missed", "set notify.missed to fail on it",
				`name="subscriptions: protocol violations"`, "wrong-subscription-id 2", `name="subscriptions: refusals"`}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			var with, without bytes.Buffer
			if err := v.write(&with, listened(t, 1, 2, true)); err != nil {
				t.Fatal(err)
			}
			for _, w := range v.want {
				if !strings.Contains(with.String(), w) {
					t.Errorf("with listeners: %q missing", w)
				}
			}
			if err := v.write(&without, fixture(t, false)); err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{"ubscriptions", "fanout"} {
				if strings.Contains(without.String(), w) {
					t.Errorf("without listeners: %q shown", w)
				}
			}
		})
	}
}

// TestFanoutChartOnlyWithRows: the fan-out chart is drawn from the rows
// by listener count, and not at all when the result has none.
func TestFanoutChartOnlyWithRows(t *testing.T) {
	for _, fan := range []bool{true, false} {
		var b bytes.Buffer
		if err := WriteHTML(&b, []*results.Result{listened(t, 0, 0, fan)}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), `data-chart="fanout"`); got != fan {
			t.Errorf("rows %v: chart drawn %v", fan, got)
		}
		if !strings.Contains(b.String(), `data-section="subscriptions"`) {
			t.Errorf("rows %v: no subscriptions section", fan)
		}
	}
}

// TestJUnitSubscriptionCases: a healthy loop's cases pass, a missed
// notification or a violation is a skipped case with its count (the
// exit is the thresholds' and the reads': no failure the exit status
// does not have, no green pass), and a server without subscriptions
// skips every case as not applicable. The document stays valid.
func TestJUnitSubscriptionCases(t *testing.T) {
	na := listened(t, 0, 0, false)
	na.Subscriptions.Streams = results.Streams{StreamCounts: stats.StreamCounts{Asked: 12, NotApplicable: 12}}
	cases := []struct {
		name    string
		r       *results.Result
		skipped map[string]string // case name → in its skip message
	}{
		{"healthy", listened(t, 0, 0, false), map[string]string{}},
		{"missed and violations", listened(t, 3, 1, false), map[string]string{
			"subscriptions: missed notifications": "3 of 480 expected missed", "subscriptions: protocol violations": "wrong-subscription-id 1"}},
		{"refused at the limit", refusedAt(listened(t, 0, 0, false), 4), map[string]string{"subscriptions: refusals": "set streams.refused"}},
		{"accounting broken", unaccounted(listened(t, 0, 0, false)), map[string]string{"subscriptions: notification accounting": "does not add up"}},
		{"not applicable", na, map[string]string{"subscriptions: notification accounting": "not applicable",
			"subscriptions: missed notifications": "not applicable", "subscriptions: protocol violations": "not applicable", "subscriptions: refusals": "not applicable"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteJUnit(&b, c.r); err != nil {
				t.Fatal(err)
			}
			var doc junitSuites
			if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			seen := 0
			for _, jc := range doc.Suites[0].Cases {
				if jc.Classname != "readbench.subscriptions" {
					continue
				}
				seen++
				if jc.Failure != nil {
					t.Errorf("%s: a failure (%s) the exit status does not have", jc.Name, jc.Failure.Message)
				}
				want, skip := c.skipped[jc.Name]
				switch {
				case skip && (jc.Skipped == nil || !strings.Contains(jc.Skipped.Message, want)):
					t.Errorf("%s: skipped %+v, want it skipped with %q", jc.Name, jc.Skipped, want)
				case !skip && jc.Skipped != nil:
					t.Errorf("%s: skipped (%s), want a pass", jc.Name, jc.Skipped.Message)
				}
			}
			if seen != 4 {
				t.Errorf("%d subscription cases, want 4", seen)
			}
			if msg := validateJUnit(t, b.Bytes()); msg != "" {
				t.Errorf("invalid JUnit: %s", msg)
			}
		})
	}
}

// TestCompareShowsSubscriptions: the compare table, markdown and HTML
// show the freshness loop's deltas when both runs had listeners, and
// none when neither had.
func TestCompareShowsSubscriptions(t *testing.T) {
	writers := []struct {
		name  string
		write func(*bytes.Buffer, *compare.Comparison) error
	}{
		{"table", func(b *bytes.Buffer, c *compare.Comparison) error { return WriteCompareTable(b, c) }},
		{"markdown", func(b *bytes.Buffer, c *compare.Comparison) error { return WriteCompareMarkdown(b, c) }},
		{"html", func(b *bytes.Buffer, c *compare.Comparison) error {
			return CompareHTML(b, c, []compare.Labelled{{Label: "base", Result: listened(t, 0, 0, false)}},
				[]compare.Labelled{{Label: "new", Result: listened(t, 2, 1, false)}})
		}},
	}
	both, err := compare.Pair(listened(t, 0, 0, false), listened(t, 2, 1, false), compare.PairOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	neither, err := compare.Pair(fixture(t, false), fixture(t, false), compare.PairOptions{NoiseFloor: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := w.write(&b, both); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"notify p99", "ack p50", "missed (% of expected)", "protocol violations"} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("both with listeners: %q missing", want)
				}
			}
			b.Reset()
			if w.name == "html" {
				return // the page takes the runs: shown above
			}
			if err := w.write(&b, neither); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), "notify p99") {
				t.Errorf("neither with listeners: subscription rows shown")
			}
		})
	}
}

// refusedAt is r with n of its subscriptions refused at the server's
// limit instead of opened.
func refusedAt(r *results.Result, n int64) *results.Result {
	r.Subscriptions.Streams.Opened -= n
	r.Subscriptions.Streams.Refused.LimitReached = n
	return r
}

// unaccounted is r with a notification accounting that does not add up.
func unaccounted(r *results.Result) *results.Result {
	r.Subscriptions.Notifications.Expected++
	r.Subscriptions.Notifications.IdentityOK = false
	return r
}
