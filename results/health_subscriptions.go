package results

import (
	"fmt"
	"strings"
)

// The health of a run's freshness loop (docs/verdicts.md, subscriptions).
// It does not change the run's state, which is the reads' (a listener's
// finding is no overload), but it is said on the health line and marks it
// "!" when the server did something a host would suffer:
//
//   - a defect of the server: a missed notification (a change a
//     subscription was open for and never told of), a protocol violation
//     (a wrong or absent subscriptionId, a notification before the
//     acknowledgement, one of a type or uri not asked for, an unreadable
//     one), a subscription refused with an HTTP or JSON-RPC error;
//   - a limit met: subscriptions refused with "Subscription limit
//     reached", streams the server dropped or ended early (a legacy
//     session's stream cut and reopened), changes lost while a stream
//     was down, duplicate notifications;
//
// and "not applicable" (the server does not offer subscriptions) is said
// as a reason only: it is no failure of the server.

// subscriptionsHealth is what the freshness loop adds to the health: a
// clause for the line ("" when nothing is wrong), the reasons, and
// whether the line must be marked.
func subscriptionsHealth(s *Subscriptions) (clause string, reasons []string, mark bool) {
	if s == nil {
		return "", nil, false
	}
	n, st := s.Notifications, s.Streams
	var defects, limits []string
	if n.Missed > 0 {
		defects = append(defects, fmt.Sprintf("%d of %d expected notifications missed", n.Missed, n.Expected))
	}
	if v := s.Violations.Total(); v > 0 {
		defects = append(defects, fmt.Sprintf("%d protocol violations in notifications (%s)", v, violationNames(s)))
	}
	if r := st.Refused.HTTP + st.Refused.RPC; r > 0 {
		defects = append(defects, fmt.Sprintf("%d subscriptions refused with an error", r))
	}
	if !n.IdentityOK {
		defects = append(defects, "the notification accounting does not add up (expected ≠ notified + coalesced + missed)")
	}
	if st.Refused.LimitReached > 0 {
		limits = append(limits, fmt.Sprintf("%d of %d subscriptions refused: limit reached", st.Refused.LimitReached, st.Asked))
	}
	d := st.Ended.Dropped + st.Ended.Server + st.Ended.Refused
	if d > 0 {
		limits = append(limits, fmt.Sprintf("%d streams ended by the server or dropped before the run's end", d))
	}
	if st.Reconnects > 0 && d == 0 {
		limits = append(limits, fmt.Sprintf("the session streams were cut and reopened %d times", st.Reconnects))
	}
	if n.LostInGaps > 0 {
		limits = append(limits, fmt.Sprintf("%d changes lost while a stream was down (not counted as missed)", n.LostInGaps))
	}
	if n.Duplicates > 0 {
		limits = append(limits, fmt.Sprintf("%d duplicate notifications", n.Duplicates))
	}
	if st.Failed > 0 {
		limits = append(limits, fmt.Sprintf("%d subscriptions never acknowledged", st.Failed))
	}
	for _, d := range defects {
		reasons = append(reasons, "subscriptions: the server's defect: "+d)
	}
	for _, l := range limits {
		reasons = append(reasons, "subscriptions: "+l)
	}
	if st.NotApplicable > 0 && st.Opened == 0 {
		reasons = append(reasons, "subscriptions: not applicable: the server does not offer resource subscriptions")
	}
	all := append(defects, limits...)
	if len(all) == 0 {
		return "", reasons, false
	}
	return "subscriptions: " + all[0], reasons, true
}

// violationNames names the violations seen with their counts, in flag
// order.
func violationNames(s *Subscriptions) string {
	v := s.Violations
	var out []string
	for _, p := range []struct {
		name string
		n    int64
	}{
		{"before-ack", v.BeforeAck}, {"no-subscription-id", v.NoSubscriptionID}, {"wrong-subscription-id", v.WrongSubscriptionID},
		{"unasked-type", v.UnaskedType}, {"unsubscribed-uri", v.UnsubscribedURI}, {"unreadable", v.Unreadable},
	} {
		if p.n > 0 {
			out = append(out, fmt.Sprintf("%s %d", p.name, p.n))
		}
	}
	return strings.Join(out, ", ")
}

// listenersNotApplied says why the listener load a run asked for was not
// the one it measured ("" when it was): listener sessions that did not
// open, or subscriptions never acknowledged and never refused (a
// transport error, no answer, readbench's own open-files limit). The
// notification figures and their thresholds then describe fewer
// listeners than asked, and a gate held to them would pass what it could
// not see, so the run fails, as one whose reading sessions did not all
// connect does. A server's refusal ("Subscription limit reached", an
// error answer) is no such case: it is a finding, said by the health and
// held to streams.refused.
func listenersNotApplied(s *Subscriptions) string {
	if s == nil {
		return ""
	}
	var parts []string
	if l := s.Listeners; l.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d listener sessions did not open", l.Failed, l.Asked))
	}
	if st := s.Streams; st.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d subscriptions were never acknowledged nor refused (no answer, a transport error, or readbench's open-files limit)", st.Failed, st.Asked))
	}
	if len(parts) == 0 {
		return ""
	}
	return "listeners: " + strings.Join(parts, "; ") + ": the run measured fewer listeners than it asked for"
}
