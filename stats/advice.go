package stats

import (
	"math"
	"slices"
	"time"
)

// AdviceInput is what the policy advice is computed from: the measured
// phase's histograms and counters and the policy the run used.
type AdviceInput struct {
	Turn *Histogram // finished turns; cut turns are recorded AT the deadline
	Read *Histogram // reads answered with a document (ok), from intended start
	// Sent counts the reads sent (every outcome but dropped) and Expected
	// those of them that met their class's expect (an expected error):
	// with too few reads answered with a document among the others (see
	// MinAdviceReads), nothing is recommended.
	Sent, Expected int64
	// Turns counts the turns of the run, dropped ones included (Turn holds
	// them too); Cut those the deadline cut, and Dropped those readbench
	// dropped itself before sending (max_in_flight, or a deadline passed
	// before the send), recorded in Turn at TurnLimit. Dropped turns are
	// never charged to the deadline: every deadline figure is of the turns
	// that started.
	Turns, Cut, Dropped int64
	// MaxInFlight is the cap on turns in flight the run had (0: none), so
	// that the advice names the cap that dropped turns.
	MaxInFlight int
	// Timeouts and Cancelled count reads that never answered: ended by
	// the read timeout, or cancelled by the turn deadline.
	Timeouts, Cancelled int64
	// Parallel is N, the reads a turn issues in parallel (the largest
	// count the workload uses): a turn waits for the slowest of them.
	Parallel int
	// Deadline and ReadTimeout are the configured limits (0: none), and
	// TurnLimit where the run recorded a turn it dropped (the workload's
	// turn limit: the deadline, else the read timeout).
	Deadline, ReadTimeout, TurnLimit time.Duration
	// Service is answered reads from the actual send. With OnService
	// (readbench's own lag is a material share of read latency) the
	// timeout, which runs from the send, is sized and priced on it rather
	// than on Read, which counts from the intended start.
	Service   *Histogram
	OnService bool
	// Noisy says the figures are not the server's (the generator did not
	// keep the schedule): the candidates are priced, nothing is
	// recommended.
	Noisy bool
}

// Limit is a candidate limit and the share (0..1) of turns or reads that
// exceeded it in the run. Of is the count the share is of (finished turns,
// sent reads): with none, Share is 0 and means nothing, so the result
// document writes it as null. AtLeast says Share is a lower bound: a
// timeout above the turn deadline, which cancelled reads before such a
// timeout could act (they might have run past it, or not).
type Limit struct {
	Limit   time.Duration
	Share   float64
	Of      int64
	AtLeast bool
}

// Advice is the policy advice: the candidates priced, the recommended
// pair, and the figures the recommendation rests on. It is numbers only:
// the sentences that explain it are written by the result document
// (package results), so that every report prints the same words and stats
// stays free of prose.
type Advice struct {
	Deadlines, Timeouts []Limit
	Deadline, Timeout   time.Duration // recommended; 0 when there was nothing to size on

	// ConfiguredDeadline and ConfiguredTimeout are the run's own limits
	// (0: none), and DeadlineShare and TimeoutShare what they cut or
	// ended: the share priced at each, 0 when there was none.
	ConfiguredDeadline, ConfiguredTimeout time.Duration
	DeadlineShare, TimeoutShare           float64
	// Reads and Turns are the samples the p99s rest on: answered reads
	// and finished turns. FewReads and FewTurns say a p99 rests on fewer
	// than MinSamples of them.
	Reads, Turns       int64
	FewReads, FewTurns bool
	// Sent counts the reads the timeouts are priced over (answered, timed
	// out or cancelled): with none, TimeoutShare means nothing.
	Sent int64
	// Cancelled counts the reads the deadline cancelled. When the timeout
	// is longer than the deadline (or absent) they were cancelled before a
	// timeout above the deadline could act, so TimeoutsLowerBound: those
	// timeouts' shares are lower bounds.
	Cancelled          int64
	TimeoutsLowerBound bool
	// ReadP50, ReadP99 and ReadMax are the read tail the timeout is sized on
	// unless OnService (and the median the deadline must never be sized on).
	ReadP50, ReadP99, ReadMax time.Duration
	// Parallel is N, the reads a turn waits for (at least 1).
	// ReadP99AsTurnQuantile is 0.99^N, the turn quantile the read p99 is;
	// TurnP99AsReadQuantile is 0.99^(1/N), the read quantile the turn p99
	// needs, and TurnP99FromReads that quantile of the reads.
	Parallel              int
	ReadP99AsTurnQuantile float64
	TurnP99AsReadQuantile float64
	TurnP99FromReads      time.Duration
	// TurnP99 is the measured turn p99; CutShare the share of turns the
	// configured deadline cut. When that is 1% or more the turn p99 is
	// unknown beyond the deadline, so the tail is raised to it and the
	// recommendation is a floor (DeadlineIsFloor).
	TurnP99         time.Duration
	CutShare        float64
	DeadlineIsFloor bool
	// Tail is what the deadline was sized on: max(TurnP99,
	// TurnP99FromReads), and the configured deadline when DeadlineIsFloor.
	Tail time.Duration
	// AllBeatMedian is 0.5^N: how often all N reads beat the read median,
	// the reason a deadline is never sized on it.
	AllBeatMedian float64
	// TimeoutRaised says the timeout was raised to the deadline: a shorter
	// one would fail reads the turn still waits for.
	TimeoutRaised bool
	// Dropped is the turns readbench dropped itself and DroppedShare
	// their share of all turns; MaxInFlight the cap the run had. They are
	// reported apart: Turns, CutShare and the deadline's shares are of the
	// turns that started.
	Dropped      int64
	DroppedShare float64
	MaxInFlight  int
	// OnService says the timeout was sized and priced on service time,
	// ServiceP99 and ServiceMax, instead of ReadP99 and ReadMax; Noisy
	// that nothing was recommended because the run is too noisy to advise
	// from.
	OnService              bool
	ServiceP99, ServiceMax time.Duration
	Noisy                  bool
	// Unfounded says that nothing was recommended because too few reads
	// were answered with a document: Reads (ok answers) is under
	// MinAdviceReads, or under half of Judged, the reads sent less the
	// expected errors (the run mostly failed).
	Unfounded bool
	Judged    int64
}

// Thresholds of the recommendation rule (see Advise), exported because the
// sentences that explain a recommendation quote them.
const (
	// MinSamples is where a p99 starts to mean something: below it the
	// p99 rests on fewer than ten samples.
	MinSamples = 1000
	// TimeoutOverP99 and TimeoutOverMax: the timeout sits >= 100x the read
	// p99 and >= 10x the slowest answer seen, and never below MinTimeout.
	TimeoutOverP99 = 100
	TimeoutOverMax = 10
	MinTimeout     = time.Second
	// DeadlineHeadway: the deadline is 2x the turn tail.
	DeadlineHeadway = 2
	// MinAdviceReads is how many reads answered with a document a
	// recommendation needs: below 100 the read p99 is the slowest read,
	// and a deadline or timeout sized on a handful of answers (or on the
	// errors of a server that mostly failed) would be sized on nothing.
	MinAdviceReads = 100
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

// Advise prices candidate limits and recommends a pair. The two limits
// answer different questions.
//
// The read timeout separates "slow" from "never going to answer". It is
// not tuned to the server's performance, so it sits far above the read
// tail: the rule is max(100 x read p99, 10 x the slowest answer, 1 s),
// rounded up to 1-2-5 (a 40 ms p99 gives 4 s, so 5 s). Ten times the
// maximum keeps one stall the run saw from being called "never"; the 1 s
// floor keeps a fast local server's timeout above scheduling noise.
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
//
// Turns readbench dropped itself are left out of the deadline's figures:
// the deadline did not cut them, and counting them (at the limit they are
// recorded at) raised the turn tail to the deadline and the recommendation
// with it. When the lag is material (OnService) the timeout is sized and
// priced on service time: it runs from the send, and the lag before the
// send is readbench's, not the server's. A Noisy run is priced but given
// no recommendation, and so is an Unfounded one: limits are sized only on
// reads answered with a document, never on errors, which are often fast
// and would size a deadline on how quickly a server says no.
//
// With no answered read there is no timeout, and with no finished turn no
// deadline: both stay 0 rather than being guessed.
func Advise(in AdviceInput) Advice {
	turn, read := orEmpty(in.Turn), orEmpty(in.Read)
	tail := read // what the timeout is sized and priced on
	if in.OnService && in.Service != nil && in.Service.Count() > 0 {
		tail = in.Service
	}
	n := max(in.Parallel, 1)
	dropped := min(max(in.Dropped, 0), in.Turns)
	ran := in.Turns - dropped
	a := Advice{
		Deadlines: []Limit{}, Timeouts: []Limit{},
		ConfiguredDeadline: in.Deadline, ConfiguredTimeout: in.ReadTimeout,
		Reads: tail.Count(), Turns: ran, Cancelled: in.Cancelled, Parallel: n,
		Dropped: dropped, DroppedShare: Ratio(dropped, in.Turns), MaxInFlight: in.MaxInFlight,
		OnService: tail != read, Noisy: in.Noisy,
		Judged: max(in.Sent-in.Expected, 0),
	}
	a.Unfounded = read.Count() < MinAdviceReads || 2*read.Count() < a.Judged
	for _, d := range candidates(deadlineCandidates(), in.Deadline) {
		above := CountAbove(turn, d)
		if d < in.TurnLimit {
			above = max(above-dropped, 0) // recorded at their limit, above d: not the deadline's
		}
		if d == in.Deadline {
			above += in.Cut // recorded at the deadline: equivalent to it, yet cut
		}
		a.Deadlines = append(a.Deadlines, Limit{Limit: d, Share: Ratio(above, ran), Of: ran})
	}
	sent := tail.Count() + in.Timeouts + in.Cancelled
	a.Sent = sent
	for _, t := range candidates(timeoutCandidates(), in.ReadTimeout) {
		above := CountAbove(tail, t) + in.Timeouts
		if in.Deadline > 0 && t <= in.Deadline {
			above += in.Cancelled
		}
		a.Timeouts = append(a.Timeouts, Limit{Limit: t, Share: Ratio(above, sent), Of: sent, AtLeast: in.Cancelled > 0 && in.Deadline > 0 && t > in.Deadline})
	}
	a.DeadlineShare, a.TimeoutShare = shareAt(a.Deadlines, in.Deadline), shareAt(a.Timeouts, in.ReadTimeout)
	a.TimeoutsLowerBound = in.Cancelled > 0 && in.Deadline > 0 && (in.ReadTimeout == 0 || in.ReadTimeout > in.Deadline)

	a.FewReads, a.FewTurns = a.Reads < MinSamples, a.Turns < MinSamples
	if a.Reads > 0 {
		a.ReadP50, a.ReadP99, a.ReadMax = read.Quantile(50), read.Quantile(99), read.Max()
		p99, most := a.ReadP99, a.ReadMax
		if a.OnService {
			a.ServiceP99, a.ServiceMax = tail.Quantile(99), tail.Max()
			p99, most = a.ServiceP99, a.ServiceMax
		}
		a.Timeout = NiceUp(max(TimeoutOverP99*p99, TimeoutOverMax*most, MinTimeout))
	}
	if ran <= 0 {
		a.Timeout = noisy(a.Timeout, in.Noisy || a.Unfounded)
		return a
	}
	// The dropped turns sit at the top of the histogram (at their limit,
	// where no started turn is above): the p99 of the turns that started
	// is the histogram's quantile 99 x ran/turns.
	a.TurnP99 = turn.Quantile(99 * float64(ran) / float64(in.Turns))
	a.ReadP99AsTurnQuantile = math.Pow(0.99, float64(n))
	a.TurnP99AsReadQuantile = math.Pow(0.99, 1/float64(n))
	a.TurnP99FromReads = read.Quantile(100 * a.TurnP99AsReadQuantile)
	a.Tail = max(a.TurnP99, a.TurnP99FromReads)
	a.CutShare = Ratio(in.Cut, ran)
	if in.Deadline > 0 && a.CutShare >= 0.01 {
		a.DeadlineIsFloor = true
		a.Tail = max(a.Tail, in.Deadline)
	}
	a.Deadline = NiceUp(DeadlineHeadway * a.Tail)
	a.AllBeatMedian = math.Pow(0.5, float64(n))
	if a.Timeout > 0 && a.Timeout < a.Deadline {
		a.Timeout = a.Deadline
		a.TimeoutRaised = true
	}
	if in.Noisy || a.Unfounded {
		a.Deadline, a.Timeout, a.TimeoutRaised = 0, 0, false
	}
	return a
}

// noisy is the recommended limit l, 0 when the run is too noisy to
// recommend one.
func noisy(l time.Duration, isNoisy bool) time.Duration {
	if isNoisy {
		return 0
	}
	return l
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
