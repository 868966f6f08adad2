package capacity

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// ListenerSLO is what a listener search holds each step to: the bounds
// on the listeners (their acknowledgement and notification p99), on the
// interference they cause (the ordinary reads' p99 with K listeners open
// against the same reads with none), and the ordinary bounds of the
// grammar on the reads (Reads). A zero bound is not set.
type ListenerSLO struct {
	Ack, Notify time.Duration
	// InterferenceRatio bounds read p99 at K over read p99 at none (1.5:
	// at most 50% slower); InterferenceAdded bounds their difference. One
	// of them at most.
	InterferenceRatio float64
	InterferenceAdded time.Duration
	Reads             []bounds.Threshold
}

// Interferes says whether the SLO bounds interference, which needs the
// reads measured with no listener open first.
func (s ListenerSLO) Interferes() bool {
	return s.InterferenceRatio > 0 || s.InterferenceAdded > 0
}

// ParseListenerSLO parses a listener search's --slo: comma-separated
// bounds, each either one of the listeners' (ack.p99<200ms,
// notify.p99<500ms, interference<1.5x or interference<20ms) or one of the
// grammar's on the reads (read.p99<50ms, errors<1%). At least one bound.
func ParseListenerSLO(text string) (ListenerSLO, error) {
	var out ListenerSLO
	var rest []string
	for _, term := range strings.Split(text, ",") {
		term = strings.TrimSpace(term)
		key, value, ok := strings.Cut(term, "<")
		key = strings.TrimSpace(key)
		if !ok || !isListenKey(key) {
			if term != "" {
				rest = append(rest, term)
			}
			continue
		}
		if err := out.set(key, strings.TrimSpace(value)); err != nil {
			return out, fmt.Errorf("%s: %w", term, err)
		}
	}
	if len(rest) > 0 {
		ts, err := bounds.ParseThresholds(strings.Join(rest, ","))
		if err != nil {
			return out, err
		}
		out.Reads = ts
	}
	if out.Ack == 0 && out.Notify == 0 && !out.Interferes() && len(out.Reads) == 0 {
		return out, errors.New("give at least one bound, e.g. 'ack.p99<200ms,notify.p99<500ms,interference<1.5x'")
	}
	return out, nil
}

// isListenKey says whether k is one of the SLO's own terms, which the
// bound grammar does not parse: ack.p99, notify.p99 and interference.
func isListenKey(k string) bool {
	switch k {
	case "ack.p99", "notify.p99", "interference":
		return true
	}
	return false
}

// set parses one listener bound's limit.
func (s *ListenerSLO) set(key, value string) error {
	if key == "interference" {
		if r, ok := strings.CutSuffix(value, "x"); ok || !strings.ContainsAny(value, "smu") {
			f, err := strconv.ParseFloat(strings.TrimSpace(r), 64)
			if err != nil || !(f > 1) {
				return errors.New("want a ratio above 1 (1.5x: read p99 at most 1.5 times that with no listener) or a duration added (20ms)")
			}
			s.InterferenceRatio = f
			return nil
		}
	}
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return errors.New("want a duration above 0, such as 200ms")
	}
	switch key {
	case "ack.p99":
		s.Ack = d
	case "notify.p99":
		s.Notify = d
	default:
		s.InterferenceAdded = d
	}
	return nil
}

// Refusals: what stopped a listener step, in the order a step names them
// (the first is what refused first).
const (
	RefusedLimit        = "limit_reached"   // the server refused a listener: -32603 "Subscription limit reached"
	RefusedSessions     = "sessions_failed" // listeners' sessions or streams failed otherwise (HTTP errors, other errors, not opened)
	RefusedAck          = "ack"             // the acknowledgement p99 broke its bound
	RefusedNotify       = "notify"          // the notification p99 broke its bound
	RefusedInterference = "interference"    // the ordinary reads slowed past their bound against none listening
	RefusedReads        = "reads"           // the reads broke a bound of the grammar
)

// ListenStep is what a listener step measured of its listeners.
type ListenStep struct {
	Asked          int64   `json:"asked"`           // listeners asked for
	Listening      int64   `json:"listening"`       // listeners that held at least one stream
	SessionsFailed int64   `json:"sessions_failed"` // listeners whose session did not open
	StreamsAsked   int64   `json:"streams_asked"`
	StreamsOpened  int64   `json:"streams_opened"`
	LimitReached   int64   `json:"limit_reached"` // streams refused with "Subscription limit reached"
	OtherRefused   int64   `json:"other_refused"` // streams refused with an HTTP error or another error
	NotApplicable  int64   `json:"not_applicable"`
	AckP99Ms       float64 `json:"ack_p99_ms"`
	Acks           int64   `json:"acks"`
	NotifyP99Ms    float64 `json:"notify_p99_ms"`
	Notifications  int64   `json:"notifications"`
	ReadP99Ms      float64 `json:"read_p99_ms"`
	// Interference is read p99 here over read p99 with no listener (0:
	// no baseline, or no reads).
	Interference float64 `json:"interference"`
	// Refused names what broke, first what refused first (Refused*).
	Refused []string `json:"refused"`
}

// listenStepOf is a step's listener figures; baseline is the read p99
// with no listener, ms (0: not measured).
func listenStepOf(r *results.Result, baseline float64) *ListenStep {
	ls := &ListenStep{ReadP99Ms: r.Read.P99Ms, Refused: []string{}}
	if s := r.Subscriptions; s != nil {
		st := s.Streams
		ls.Asked, ls.Listening, ls.SessionsFailed = s.Listeners.Asked, s.Listeners.Listening, s.Listeners.Failed
		ls.StreamsAsked, ls.StreamsOpened, ls.NotApplicable = st.Asked, st.Opened, st.NotApplicable
		ls.LimitReached, ls.OtherRefused = st.Refused.LimitReached, st.Refused.HTTP+st.Refused.RPC
		ls.AckP99Ms, ls.Acks, ls.NotifyP99Ms, ls.Notifications = s.Ack.P99Ms, s.Ack.Count, s.Notify.P99Ms, s.Notify.Count
	}
	if baseline > 0 && r.Read.Count > 0 {
		ls.Interference = r.Read.P99Ms / baseline
	}
	return ls
}

// refusals lists what ls breaks of slo, in the order of the Refused
// constants, each with its words; reads is the grammar's verdict on the
// reads ("" when they held).
func (slo ListenerSLO) refusals(ls *ListenStep, baseline float64, reads string) (names, words []string) {
	add := func(n, w string) { names, words = append(names, n), append(words, w) }
	if ls.LimitReached > 0 {
		add(RefusedLimit, fmt.Sprintf("%d of %d listen streams refused: Subscription limit reached", ls.LimitReached, ls.StreamsAsked))
	}
	if missing := ls.StreamsAsked - ls.StreamsOpened - ls.LimitReached - ls.NotApplicable; ls.SessionsFailed > 0 || ls.OtherRefused > 0 || missing > 0 {
		add(RefusedSessions, fmt.Sprintf("%d listener sessions failed, %d streams refused otherwise, %d of %d streams not opened",
			ls.SessionsFailed, ls.OtherRefused, max(missing, 0), ls.StreamsAsked))
	}
	if slo.Ack > 0 && ls.AckP99Ms > ms(slo.Ack) {
		add(RefusedAck, fmt.Sprintf("ack.p99 %s ms > %s", numfmt.Sig3(ls.AckP99Ms), slo.Ack))
	}
	if slo.Notify > 0 && ls.NotifyP99Ms > ms(slo.Notify) {
		add(RefusedNotify, fmt.Sprintf("notify.p99 %s ms > %s", numfmt.Sig3(ls.NotifyP99Ms), slo.Notify))
	}
	if baseline > 0 && ls.Interference > 0 {
		switch {
		case slo.InterferenceRatio > 0 && ls.Interference > slo.InterferenceRatio:
			add(RefusedInterference, fmt.Sprintf("read p99 %s ms is %s× the %s ms with no listener > %s×",
				numfmt.Sig3(ls.ReadP99Ms), numfmt.Sig3(ls.Interference), numfmt.Sig3(baseline), numfmt.Sig3(slo.InterferenceRatio)))
		case slo.InterferenceAdded > 0 && ls.ReadP99Ms-baseline > ms(slo.InterferenceAdded):
			add(RefusedInterference, fmt.Sprintf("read p99 %s ms is %s ms over the %s ms with no listener > %s",
				numfmt.Sig3(ls.ReadP99Ms), numfmt.Sig3(ls.ReadP99Ms-baseline), numfmt.Sig3(baseline), slo.InterferenceAdded))
		}
	}
	if reads != "" {
		add(RefusedReads, reads)
	}
	return names, words
}

// listenCriterion is a listener step's Criterion: the reads' bounds of
// the grammar, and the listeners' own against the baseline's read p99.
// What a step measured of its listeners is kept for the step.
type listenCriterion struct {
	slo      ListenerSLO
	reads    slo
	baseline float64 // read p99 with no listener, ms; 0: none
	last     *ListenStep
	lastWhy  string // the last step's broken bounds in words
}

// Meets: every bound holds; the reason names those that do not, what
// refused first first.
func (c *listenCriterion) Meets(r *results.Result) (bool, string, error) {
	var readWhy string
	if len(c.reads) > 0 {
		pass, why, err := c.reads.Meets(r)
		if err != nil {
			return false, "", err
		}
		if !pass {
			readWhy = why
		}
	}
	c.last = listenStepOf(r, c.baseline)
	names, words := c.slo.refusals(c.last, c.baseline, readWhy)
	c.last.Refused = append(c.last.Refused, names...)
	c.lastWhy = strings.Join(words, "; ")
	return len(names) == 0, c.lastWhy, nil
}

// LagExplains: only a failure of the reads' latency bounds alone can be
// readbench's scheduling lag; a listener's ack and notification run from
// their own send, and a refusal is the server's word.
func (c *listenCriterion) LagExplains(r *results.Result) bool {
	return c.onlyReads() && len(c.reads) > 0 && c.reads.LagExplains(r)
}

// Unsteady: as the reads' bounds say, when only they broke.
func (c *listenCriterion) Unsteady(r *results.Result) string {
	if !c.onlyReads() || len(c.reads) == 0 {
		return ""
	}
	return c.reads.Unsteady(r)
}

// onlyReads says whether the last step judged broke the reads' bounds
// and nothing of the listeners'.
func (c *listenCriterion) onlyReads() bool {
	return c.last != nil && len(c.last.Refused) == 1 && c.last.Refused[0] == RefusedReads
}
