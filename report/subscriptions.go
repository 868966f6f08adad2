package report

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// The freshness loop of a run with listeners (results.Subscriptions) in
// the terminal report: the brief report's lines (ack and notify latency,
// the identity of the notification accounting, what went wrong), and in
// --full a latency table (acknowledgement, notification, spread, the
// changes' lag) and every count. A run without listeners shows nothing.
// Markdown, HTML and JUnit show the same rows and lines
// (subscriptionsviews.go).

// subscriptionsBrief are the brief report's lines of the freshness loop.
func subscriptionsBrief(r *results.Result) [][2]string {
	s := r.Subscriptions
	if s == nil {
		return nil
	}
	fs := [][2]string{
		{"listen", listenersText(s) + fmt.Sprintf("; ack p50 %s p99 %s", numfmt.Ms(s.Ack.P50Ms), numfmt.Ms(s.Ack.P99Ms))},
		{"notify", fmt.Sprintf("p50 %s p99 %s spread p99 %s; %s", numfmt.Ms(s.Notify.P50Ms), numfmt.Ms(s.Notify.P99Ms),
			numfmt.Ms(s.Spread.P99Ms), notifyIdentityText(s))},
		{"streams", streamLifeText(s)},
	}
	return append(fs, problemFields(s)...)
}

// streamLifeText is the streams' life in one line: how long they lived,
// how often they came back, the keep-alives they carried, and the changes
// lost while one was down.
func streamLifeText(s *results.Subscriptions) string {
	st := s.Streams
	return fmt.Sprintf("lifetime p50 %s p99 %s; %s reconnects, %s keep-alives; %s changes lost in gaps",
		numfmt.Ms(st.Lifetime.P50Ms), numfmt.Ms(st.Lifetime.P99Ms), numfmt.Count(st.Reconnects), numfmt.Count(st.KeepAlives),
		numfmt.Count(s.Notifications.LostInGaps))
}

// listenersText says how the listeners subscribed.
func listenersText(s *results.Subscriptions) string {
	l, st := s.Listeners, s.Streams
	mode := map[string]string{stats.ModeListen: "subscriptions/listen", stats.ModeSubscribe: "resources/subscribe"}[s.Mode]
	if mode == "" {
		mode = "no session opened"
	}
	return fmt.Sprintf("%s listening of %s (%s), %s of %s streams open", numfmt.Count(l.Listening), numfmt.Count(l.Asked), mode,
		numfmt.Count(st.Opened), numfmt.Count(st.Asked))
}

// notifyIdentityText is the notification accounting in one line, with its
// identity's verdict.
func notifyIdentityText(s *results.Subscriptions) string {
	n := s.Notifications
	mark := "✓"
	if !n.IdentityOK {
		mark = "✗ does not add up"
	}
	return fmt.Sprintf("expected %s = notified %s + coalesced %s + missed %s %s", numfmt.Count(n.Expected), numfmt.Count(n.Notified),
		numfmt.Count(n.Coalesced), numfmt.Count(n.Missed), mark)
}

// problemFields are the lines of what went wrong (none when nothing did).
func problemFields(s *results.Subscriptions) [][2]string {
	var fs [][2]string
	if v := s.Violations.Total(); v > 0 {
		fs = append(fs, [2]string{"violations", violationsText(s.Violations)})
	}
	st := s.Streams
	var refused []string
	for _, p := range []struct {
		n    int64
		what string
	}{
		{st.Refused.LimitReached, "limit reached (an error inside HTTP 200)"}, {st.Refused.HTTP, "HTTP error"},
		{st.Refused.RPC, "JSON-RPC error"}, {st.Failed, "never acknowledged"}, {st.NotApplicable, "not applicable: no subscriptions offered"},
	} {
		if p.n > 0 {
			refused = append(refused, numfmt.Count(p.n)+" "+p.what)
		}
	}
	if len(refused) > 0 {
		fs = append(fs, [2]string{"refused", strings.Join(refused, ", ")})
	}
	if e := st.Ended; e.Server+e.Refused+e.Dropped > 0 {
		fs = append(fs, [2]string{"ended", fmt.Sprintf("%s by the server, %s refused after the ack, %s dropped, %s closed by readbench",
			numfmt.Count(e.Server), numfmt.Count(e.Refused), numfmt.Count(e.Dropped), numfmt.Count(e.Closed))})
	}
	if n := s.Notifications; n.Duplicates+n.Unsubscribed+n.Unrouted > 0 {
		fs = append(fs, [2]string{"extra", fmt.Sprintf("%s duplicates, %s of URIs not subscribed, %s unrouted",
			numfmt.Count(n.Duplicates), numfmt.Count(n.Unsubscribed), numfmt.Count(n.Unrouted))})
	}
	return fs
}

// violationsText names each violation seen with its count.
func violationsText(v stats.Violations) string {
	var out []string
	for _, p := range []struct {
		name string
		n    int64
	}{
		{"before-ack", v.BeforeAck}, {"no-subscription-id", v.NoSubscriptionID}, {"wrong-subscription-id", v.WrongSubscriptionID},
		{"unasked-type", v.UnaskedType}, {"unsubscribed-uri", v.UnsubscribedURI}, {"unreadable", v.Unreadable},
	} {
		if p.n > 0 {
			out = append(out, p.name+" "+numfmt.Count(p.n))
		}
	}
	return strings.Join(out, ", ")
}

// subscriptionsNote says what the rows hold.
const subscriptionsNote = "ack: subscribe or listen request to its acknowledgement. notify: a change's send to each subscription's notification; [class] by the changed URI's class, [N open] by the subscriptions open for its URI at the change. spread: first to last notification of one change. change lag: a change's send after its scheduled time. lifetime: a stream's acknowledgement to its end (those readbench closed end with the run). lost in gaps: changes made while a stream was down and never told, not counted as expected."

// subscriptionRows are the latency rows of the freshness loop in every
// format.
func subscriptionRows(s *results.Subscriptions) []namedLatency {
	return []namedLatency{{name: "ack", l: s.Ack}, {name: "notify", l: s.Notify}, {name: "spread", l: s.Spread}, {name: "change lag", l: s.Changes.Lag}}
}

// subscriptionFields are the lines under the rows in every format: how
// the listeners subscribed, the changes, the accounting, the re-reads
// and what went wrong.
func subscriptionFields(s *results.Subscriptions) [][2]string {
	c := s.Changes
	rr := s.Rereads
	fs := [][2]string{
		{"listen", listenersText(s)},
		{"changes", fmt.Sprintf("via %s at %s/s: %s made, %s failed", c.Via, strconv.FormatFloat(c.Rate, 'g', 4, 64), numfmt.Count(c.Made), numfmt.Count(c.Failed))},
		{"notified", fmt.Sprintf("%s received; %s", numfmt.Count(s.Notifications.Received), notifyIdentityText(s))},
		{"streams", streamLifeText(s)},
		{"re-reads", fmt.Sprintf("%s made (class %s), %s skipped as fresh by ttlMs, %s sent while fresh, %s skipped as cached by cacheScope, %s sent a cache by cacheScope would answer",
			numfmt.Count(rr.Made), rr.Class, numfmt.Count(rr.SkippedFresh), numfmt.Count(rr.WouldSkip), numfmt.Count(rr.SkippedScope), numfmt.Count(rr.WouldSkipScope))},
	}
	return append(fs, problemFields(s)...)
}

// subscriptionsTable is the full report's subscriptions block.
func subscriptionsTable(w io.Writer, r *results.Result) error {
	s := r.Subscriptions
	if s == nil {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "subscriptions")
	t := newTable(w, 1, latencyHeader("", true)...)
	for _, row := range terminalSubscriptionRows(s) {
		if err := t.Append(latencyRow(row.name, row.l)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	writeFields(w, subscriptionFields(s))
	fmt.Fprintln(w, wrapText(subscriptionsNote, widthOf(w)))
	return nil
}

// terminalSubscriptionRows are the full terminal report's rows: every
// format's (subscriptionRows) with, after notify, its split by class (when
// there are several) and by subscriptions open for the URI, and the
// streams' lifetime last.
func terminalSubscriptionRows(s *results.Subscriptions) []namedLatency {
	var out []namedLatency
	for _, row := range subscriptionRows(s) {
		out = append(out, row)
		if row.name != "notify" {
			continue
		}
		if len(s.NotifyByClass) > 1 {
			for _, c := range s.NotifyByClass {
				out = append(out, namedLatency{name: "notify [" + cmp.Or(c.Class, "no class") + "]", l: c.Latency})
			}
		}
		for _, b := range s.NotifyByListeners {
			out = append(out, namedLatency{name: "notify [" + b.Listeners + " open]", l: b.Latency})
		}
	}
	return append(out, namedLatency{name: "lifetime", l: s.Streams.Lifetime})
}
