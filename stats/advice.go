package stats

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// AdviceInput is what the policy advice is computed from: the measured
// phase's histograms and counters and the policy the run used.
type AdviceInput struct {
	Turn *Histogram // finished turns; cut turns are recorded AT the deadline
	Read *Histogram // answered reads, from intended start
	// Turns and Cut count finished turns and those the deadline cut.
	Turns, Cut int64
	// Timeouts and Cancelled count reads that never answered: ended by
	// the read timeout, or cancelled by the turn deadline.
	Timeouts, Cancelled int64
	// Parallel is N, the reads a turn issues in parallel (the largest
	// count the workload uses): a turn waits for the slowest of them.
	Parallel int
	// Deadline and ReadTimeout are the configured limits (0: none).
	Deadline, ReadTimeout time.Duration
}

// Limit is a candidate limit and the share (0..1) of turns or reads that
// exceeded it in the run.
type Limit struct {
	Limit time.Duration
	Share float64
}

// Advice is the policy advice: candidates, the recommended pair, and the
// reasoning in plain sentences.
type Advice struct {
	Deadlines, Timeouts []Limit
	Deadline, Timeout   time.Duration // recommended; 0 when there was nothing to size on
	Reasoning           []string
}

// Thresholds of the recommendation rule (see Advise).
const (
	// minSamples is where a p99 starts to mean something: below it the
	// p99 rests on fewer than ten samples.
	minSamples      = 1000
	timeoutOverP99  = 100 // the timeout sits >= 100x the read p99 ...
	timeoutOverMax  = 10  // ... and >= 10x the slowest answer seen ...
	minTimeout      = time.Second
	deadlineHeadway = 2 // the deadline is 2x the turn tail
)

// deadlineCandidates and timeoutCandidates are the limits the advice
// prices, to which the configured one is added.
func deadlineCandidates() []time.Duration {
	ms := time.Millisecond
	return []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, time.Second, 2 * time.Second, 5 * time.Second}
}

func timeoutCandidates() []time.Duration {
	ms := time.Millisecond
	return []time.Duration{100 * ms, 200 * ms, 500 * ms, time.Second, 2 * time.Second, 5 * time.Second,
		10 * time.Second, 30 * time.Second}
}

// Advise prices candidate limits and recommends a pair, following the
// reasoning of seed 000: the two limits answer different questions.
//
// The read timeout separates "slow" from "never going to answer". It is
// not tuned to the server's performance, so it sits far above the read
// tail: the rule is max(100 x read p99, 10 x the slowest answer, 1 s),
// rounded up to 1-2-5 (40 ms p99 gives 4 s, so 5 s: the seed's pair). Ten
// times the maximum keeps one stall the run saw from being called "never";
// the 1 s floor keeps a fast local server's timeout above scheduling noise.
//
// The turn deadline is the schedule of the turn. A turn of N parallel
// reads ends with the slowest of them, so it is sized on the turn tail,
// never on the median: P(turn <= d) = P(read <= d)^N, so the read p99 is
// only the turn's p(0.99^N), and the turn p99 needs the read quantile
// 0.99^(1/N). The rule is 2 x max(turn p99, that read quantile), rounded
// up to 1-2-5: the measured turn p99 includes what the reads share (one
// slow session slows all N), the read estimate guards a turn histogram of
// few samples, and 2x is headroom for a tail that moves between runs.
//
// What the run can say is bounded by its own limits. Cut turns are
// recorded at the deadline, so a longer deadline cannot be priced: every
// turn not cut finished before it, and only the cut ones could exceed a
// longer one, so its share is at most the cut share (and candidates above
// the configured deadline are left out). Likewise reads that timed out
// count above every candidate up to the configured timeout, and longer
// timeouts are left out; reads the deadline cancelled count above every
// timeout up to the deadline and are unknown beyond it. Timeouts are priced
// from the intended start, as read latency is: when the generator fell
// behind this overstates what they would end.
func Advise(in AdviceInput) Advice {
	turn, read := orEmpty(in.Turn), orEmpty(in.Read)
	a := Advice{Deadlines: []Limit{}, Timeouts: []Limit{}}
	say := func(format string, args ...any) { a.Reasoning = append(a.Reasoning, fmt.Sprintf(format, args...)) }
	n := max(in.Parallel, 1)

	for _, d := range candidates(deadlineCandidates(), in.Deadline) {
		above := CountAbove(turn, d)
		if d == in.Deadline {
			above += in.Cut // recorded at the deadline: equivalent to it, yet cut
		}
		a.Deadlines = append(a.Deadlines, Limit{d, Ratio(above, in.Turns)})
	}
	sent := read.Count() + in.Timeouts + in.Cancelled
	for _, t := range candidates(timeoutCandidates(), in.ReadTimeout) {
		above := CountAbove(read, t) + in.Timeouts
		if in.Deadline > 0 && t <= in.Deadline {
			above += in.Cancelled
		}
		a.Timeouts = append(a.Timeouts, Limit{t, Ratio(above, sent)})
	}

	atDeadline, atTimeout := shareAt(a.Deadlines, in.Deadline), shareAt(a.Timeouts, in.ReadTimeout)
	if in.Deadline > 0 || in.ReadTimeout > 0 {
		say("Configured: deadline %s cut or outlasted %s of turns; timeout %s ended %s of reads.",
			dur(in.Deadline), pct(atDeadline), dur(in.ReadTimeout), pct(atTimeout))
	}
	if in.Deadline > 0 {
		say("Deadlines above %s cannot be priced: cut turns are recorded at %s, so a longer one "+
			"would cut at most %s.", dur(in.Deadline), dur(in.Deadline), pct(atDeadline))
	}
	if in.Cancelled > 0 && in.Deadline > 0 && (in.ReadTimeout == 0 || in.ReadTimeout > in.Deadline) {
		say("%d reads were cancelled at the deadline before a timeout above %s could act: "+
			"those timeouts' shares are lower bounds.", in.Cancelled, dur(in.Deadline))
	}

	if read.Count() == 0 {
		say("No read answered: there is no read tail to size a timeout on.")
	} else {
		p99, mx := read.Quantile(99), read.Max()
		a.Timeout = NiceUp(max(timeoutOverP99*p99, timeoutOverMax*mx, minTimeout))
		say("Timeout %s = max(%d x read p99 %s, %d x read max %s, %s), rounded up: it separates slow "+
			"from never, so it sits far above the read tail; near it, it would fail healthy reads.",
			dur(a.Timeout), timeoutOverP99, dur(p99), timeoutOverMax, dur(mx), dur(minTimeout))
		few(say, "read", read.Count())
	}

	if in.Turns == 0 {
		say("No turn finished: there is no turn tail to size a deadline on.")
		return a
	}
	turnP99 := turn.Quantile(99)
	q := math.Pow(0.99, 1/float64(n))
	fromReads := read.Quantile(100 * q)
	if read.Count() > 0 {
		say("%d parallel reads: P(turn <= d) = P(read <= d)^%d, so the read p99 (%s) is the turn's p%s "+
			"(0.99^%d) and the turn p99 is the read p%s (0.99^(1/%d)) = %s; measured turn p99 %s.",
			n, n, dur(read.Quantile(99)), quantileName(math.Pow(0.99, float64(n))), n,
			quantileName(q), n, dur(fromReads), dur(turnP99))
	}
	tail := max(turnP99, fromReads)
	if in.Deadline > 0 && Ratio(in.Cut, in.Turns) >= 0.01 {
		tail = max(tail, in.Deadline)
		say("%s of turns were cut at %s: the turn p99 is at least that and its true value unknown, "+
			"so the deadline below is a floor; rerun with a longer one to measure the tail.",
			pct(Ratio(in.Cut, in.Turns)), dur(in.Deadline))
	}
	a.Deadline = NiceUp(deadlineHeadway * tail)
	median := read.Quantile(50)
	say("Deadline %s = %d x the turn tail %s, rounded up; never the read median %s: all %d reads "+
		"beat it only 0.5^%d = %s of the time.",
		dur(a.Deadline), deadlineHeadway, dur(tail), dur(median), n, n, pct(math.Pow(0.5, float64(n))))
	few(say, "turn", in.Turns)
	if a.Timeout > 0 && a.Timeout < a.Deadline {
		a.Timeout = a.Deadline
		say("The timeout is raised to the deadline: a shorter one would fail reads the turn still waits for.")
	}
	say("The server sets the deadline's floor; the user's patience sets its ceiling.")
	return a
}

// shareAt is the share priced for limit l (0 when l is not a candidate).
func shareAt(ls []Limit, l time.Duration) float64 {
	for _, c := range ls {
		if c.Limit == l {
			return c.Share
		}
	}
	return 0
}

// few warns when a p99 rests on too few samples to trust.
func few(say func(string, ...any), what string, n int64) {
	if n < minSamples {
		say("The %s p99 rests on %d samples (fewer than %d; its slowest %d decide it): a rough figure, "+
			"run longer before relying on it.", what, n, minSamples, (n+99)/100)
	}
}

// candidates returns the candidates up to limit (all when limit is 0),
// with limit itself, sorted and without duplicates.
func candidates(base []time.Duration, limit time.Duration) []time.Duration {
	var out []time.Duration
	for _, c := range base {
		if limit <= 0 || c <= limit {
			out = append(out, c)
		}
	}
	if limit > 0 {
		out = append(out, limit)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// CountAbove is the number of values of h above d at the histogram's
// resolution: values equivalent to d (same bucket) are not above it, so a
// turn recorded at the deadline is not counted above the deadline.
func CountAbove(h *Histogram, d time.Duration) int64 {
	us := int64(d / time.Microsecond)
	var n int64
	for _, b := range h.h.Distribution() {
		if b.From > us {
			n += b.Count
		}
	}
	return n
}

// NiceUp rounds d up to the 1-2-5 series of milliseconds (1 ms, 2 ms,
// 5 ms, 10 ms ... 1 s, 2 s, 5 s ...): limits a person types and remembers.
// A value within 0.2% above a round one is that value: histograms report
// the top of a bucket (0.1% wide), so 100 x a 20 ms p99 reads 2.001 s,
// which is 2 s, not a reason for 5 s.
func NiceUp(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	base := time.Millisecond
	for range 15 { // 1 ms x 10^15 is far past any latency
		for _, m := range []time.Duration{1, 2, 5} {
			if base*m >= d-d/500 {
				return base * m
			}
		}
		base *= 10
	}
	return d
}

func orEmpty(h *Histogram) *Histogram {
	if h == nil {
		return NewHistogram()
	}
	return h
}

// dur writes a duration with three significant digits: "40 ms", "1.5 s".
func dur(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	if d >= time.Second {
		return sig3(d.Seconds()) + " s"
	}
	return sig3(float64(d)/float64(time.Millisecond)) + " ms"
}

func sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	e := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return strconv.FormatFloat(math.Round(v*e)/e, 'f', -1, 64)
}

// pct writes a share as a percentage, with more digits when it is small.
func pct(f float64) string {
	if f > 0 && f < 0.001 {
		return strconv.FormatFloat(f*100, 'f', 3, 64) + "%"
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + "%"
}

// quantileName writes a quantile (0..1) as a percentile name: 0.9975 is
// "99.75", 0.96059601 is "96.1".
func quantileName(q float64) string {
	return strconv.FormatFloat(math.Round(q*10000)/100, 'f', -1, 64)
}
