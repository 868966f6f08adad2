package stats

import (
	"math"
	"strconv"
	"testing"
	"time"
)

const ms = time.Millisecond

// hist records n values of d for each (n, d) pair.
func hist(pairs ...any) *Histogram {
	h := NewHistogram()
	for i := 0; i+1 < len(pairs); i += 2 {
		for range pairs[i].(int) {
			h.Record(pairs[i+1].(time.Duration))
		}
	}
	return h
}

func shares(ls []Limit) map[time.Duration]float64 {
	m := map[time.Duration]float64{}
	for _, l := range ls {
		m[l.Limit] = l.Share
	}
	return m
}

// fig, num and flag compare one figure of the advice, returning what is
// wrong ("" when right): durations within the histograms' resolution
// (0.2%), numbers within 1e-9.
func fig(name string, got, want time.Duration) string {
	if d := got - want; d > want/500 || -d > want/500 {
		return name + ": " + got.String() + ", want " + want.String()
	}
	return ""
}

func num(name string, got, want float64) string {
	if math.Abs(got-want) > 1e-9 {
		return name + ": " + strconv.FormatFloat(got, 'g', -1, 64) + ", want " + strconv.FormatFloat(want, 'g', -1, 64)
	}
	return ""
}

func flag(name string, got, want bool) string {
	if got != want {
		return name + ": " + strconv.FormatBool(got) + ", want " + strconv.FormatBool(want)
	}
	return ""
}

// wrong keeps the non-empty complaints.
func wrong(checks ...string) []string {
	var out []string
	for _, c := range checks {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func TestAdvise(t *testing.T) {
	for _, c := range []struct {
		name           string // what the case proves
		in             AdviceInput
		deadline       time.Duration
		timeout        time.Duration
		deadlineShares map[time.Duration]float64 // candidate -> share; a negative share: must be absent
		timeoutShares  map[time.Duration]float64
		figures        func(a Advice) []string // what the sentences rest on; the wrong ones
	}{
		{
			name: "a server with a 12 ms median, a 40 ms p99 and 4 parallel reads gets a 5 s timeout " +
				"and a deadline on the turn tail, not the median",
			in: AdviceInput{
				Read:  hist(9850, 12*ms, 150, 40*ms),
				Turn:  hist(2425, 20*ms, 75, 70*ms),
				Turns: 2500, Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			deadline: 200 * ms, timeout: 5 * time.Second,
			deadlineShares: map[time.Duration]float64{100 * ms: 0, 800 * ms: 0, time.Second: -1},
			timeoutShares:  map[time.Duration]float64{100 * ms: 0, 5 * time.Second: 0, 10 * time.Second: -1},
			figures: func(a Advice) []string {
				return wrong(
					fig("read p99", a.ReadP99, 40*ms), fig("read max", a.ReadMax, 40*ms), fig("read p50", a.ReadP50, 12*ms),
					fig("turn p99", a.TurnP99, 70*ms), fig("turn p99 from reads", a.TurnP99FromReads, 40*ms),
					fig("tail", a.Tail, 70*ms), num("0.99^4", a.ReadP99AsTurnQuantile, 0.96059601),
					num("0.99^(1/4)", a.TurnP99AsReadQuantile, math.Pow(0.99, 0.25)), num("0.5^4", a.AllBeatMedian, 0.0625),
					flag("few reads", a.FewReads, false), flag("few turns", a.FewTurns, false),
					flag("floor", a.DeadlineIsFloor, false), flag("raised", a.TimeoutRaised, false),
					fig("configured deadline", a.ConfiguredDeadline, 800*ms), num("parallel", float64(a.Parallel), 4))
			},
		},
		{
			name: "cut turns are recorded at the deadline: they count at it, longer deadlines are " +
				"left out, and the recommendation is a floor above the deadline",
			in: AdviceInput{
				Read: hist(400, 5*ms), Turn: hist(100, 100*ms, 5, 800*ms),
				Turns: 105, Cut: 5, Cancelled: 5, Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			deadline: 2 * time.Second, timeout: 2 * time.Second,
			deadlineShares: map[time.Duration]float64{100 * ms: 5.0 / 105, 400 * ms: 5.0 / 105,
				800 * ms: 5.0 / 105, 2 * time.Second: -1},
			timeoutShares: map[time.Duration]float64{100 * ms: 5.0 / 405, 500 * ms: 5.0 / 405, time.Second: 0},
			figures: func(a Advice) []string {
				return wrong(num("deadline share", a.DeadlineShare, 5.0/105), num("cut share", a.CutShare, 5.0/105),
					flag("floor", a.DeadlineIsFloor, true), fig("tail", a.Tail, 800*ms),
					num("turns", float64(a.Turns), 105), flag("few turns", a.FewTurns, true),
					num("cancelled", float64(a.Cancelled), 5), flag("timeouts lower bounds", a.TimeoutsLowerBound, true),
					flag("raised", a.TimeoutRaised, true))
			},
		},
		{
			name: "timeouts count above every candidate up to the configured timeout; longer ones are left out",
			in: AdviceInput{
				Read: hist(100, 20*ms), Turn: hist(25, 30*ms), Turns: 25, Timeouts: 5,
				Parallel: 4, ReadTimeout: 5 * time.Second,
			},
			deadline: 100 * ms, timeout: 2 * time.Second,
			deadlineShares: map[time.Duration]float64{5 * time.Second: 0},
			timeoutShares: map[time.Duration]float64{100 * ms: 5.0 / 105, 5 * time.Second: 5.0 / 105,
				10 * time.Second: -1},
			figures: func(a Advice) []string {
				return wrong(fig("configured timeout", a.ConfiguredTimeout, 5*time.Second),
					num("timeout share", a.TimeoutShare, 5.0/105), num("deadline share", a.DeadlineShare, 0),
					flag("timeouts lower bounds", a.TimeoutsLowerBound, false))
			},
		},
		{
			name: "one stall seen keeps the timeout above it: 10 x the slowest answer wins over 100 x p99",
			in: AdviceInput{
				Read: hist(2000, 5*ms, 1, 2*time.Second), Turn: hist(2000, 10*ms), Turns: 2000, Parallel: 1,
			},
			deadline: 20 * ms, timeout: 20 * time.Second,
			figures: func(a Advice) []string {
				return wrong(fig("read max", a.ReadMax, 2*time.Second), num("parallel", float64(a.Parallel), 1),
					num("0.99^1", a.ReadP99AsTurnQuantile, 0.99))
			},
		},
		{
			name:     "no samples: no recommendation and no division by zero",
			in:       AdviceInput{Deadline: 800 * ms, ReadTimeout: 5 * time.Second, Parallel: 4},
			deadline: 0, timeout: 0,
			deadlineShares: map[time.Duration]float64{800 * ms: 0},
			figures: func(a Advice) []string {
				return wrong(num("reads", float64(a.Reads), 0), num("turns", float64(a.Turns), 0),
					flag("few reads", a.FewReads, true), fig("tail", a.Tail, 0), num("parallel", float64(a.Parallel), 4))
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := Advise(c.in)
			if a.Deadline != c.deadline || a.Timeout != c.timeout {
				t.Errorf("recommended deadline %v timeout %v, want %v %v", a.Deadline, a.Timeout, c.deadline, c.timeout)
			}
			check := func(what string, got []Limit, want map[time.Duration]float64) {
				m := shares(got)
				for d, w := range want {
					g, ok := m[d]
					switch {
					case w < 0 && ok:
						t.Errorf("%s %v present (share %v): it cannot be priced", what, d, g)
					case w >= 0 && !ok:
						t.Errorf("%s %v missing", what, d)
					case w >= 0 && (g-w > 1e-9 || w-g > 1e-9):
						t.Errorf("%s %v share %v, want %v", what, d, g, w)
					}
				}
			}
			check("deadline", a.Deadlines, c.deadlineShares)
			check("timeout", a.Timeouts, c.timeoutShares)
			for _, w := range c.figures(a) {
				t.Error(w)
			}
			for _, f := range []float64{a.DeadlineShare, a.TimeoutShare, a.CutShare, a.ReadP99AsTurnQuantile,
				a.TurnP99AsReadQuantile, a.AllBeatMedian} {
				if math.IsNaN(f) || math.IsInf(f, 0) {
					t.Errorf("a figure is NaN or Inf: %+v", a)
				}
			}
		})
	}
}

func TestNiceUp(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{
		{0, 0}, {-ms, 0}, // no limit stays none
		{ms / 2, ms},                        // below the series' start
		{140 * ms, 200 * ms},                // rounds up, never down
		{200 * ms, 200 * ms},                // a round value stays
		{4 * time.Second, 5 * time.Second},  // 100 x a 40 ms p99
		{1600 * ms, 2 * time.Second},        // 2 x an 800 ms deadline
		{6 * time.Second, 10 * time.Second}, // next decade
		{2002 * ms, 2 * time.Second},        // within histogram resolution of a round value
		{2010 * ms, 5 * time.Second},        // beyond it
	} {
		if got := NiceUp(c.in); got != c.want {
			t.Errorf("NiceUp(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestCountAboveTreatsTheBucketOfTheLimitAsNotAbove(t *testing.T) {
	h := hist(3, 800*ms, 2, 801*ms, 1, 799*ms)
	if n := CountAbove(h, 800*ms); n != 2 {
		t.Errorf("above 800 ms: %d, want the 2 at 801 ms", n)
	}
	if n := CountAbove(h, 100*ms); n != 6 {
		t.Errorf("above 100 ms: %d, want 6", n)
	}
}

// TestAdviceOnlyFromDocuments: limits are sized on reads answered with a
// document; a run whose reads failed (every one method_not_found, or most
// not_found) or that served fewer than MinAdviceReads documents prices
// the candidates and recommends nothing, while expected errors do not
// count against the run.
func TestAdviceOnlyFromDocuments(t *testing.T) {
	const ms = time.Millisecond
	many := func(n int, d time.Duration) *Histogram {
		h := NewHistogram()
		for range n {
			h.Record(d)
		}
		return h
	}
	for _, c := range []struct {
		name          string
		ok, sent, exp int64
		recommend     bool
	}{
		{"every read failed", 0, 2000, 0, false},
		{"95.8% not found", 84, 2000, 0, false},
		{"most reads failed, many documents", 900, 2000, 0, false},
		{"too few documents", 99, 99, 0, false},
		{"healthy", 1900, 2000, 0, true},
		{"expected errors aside", 400, 2000, 1500, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := Advise(AdviceInput{
				Read: many(int(c.ok), 15*ms), Turn: many(int(c.sent/4), 2*ms), Turns: c.sent / 4,
				Sent: c.sent, Expected: c.exp, Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			})
			if got := a.Deadline > 0 && a.Timeout > 0; got != c.recommend || a.Unfounded == c.recommend {
				t.Fatalf("%d ok of %d sent (%d expected): deadline %v, timeout %v, unfounded %v; want a recommendation %v",
					c.ok, c.sent, c.exp, a.Deadline, a.Timeout, a.Unfounded, c.recommend)
			}
			if len(a.Deadlines) == 0 || len(a.Timeouts) == 0 {
				t.Fatal("the candidates are priced whatever the recommendation")
			}
		})
	}
}

// TestAdviseTimeoutsAtLeast: a timeout above the deadline that cancelled
// reads is priced as a lower bound (those reads might have run past it),
// one at or below the deadline is exact, and with nothing cancelled no
// share is a lower bound.
func TestAdviseTimeoutsAtLeast(t *testing.T) {
	for _, c := range []struct {
		name      string
		cancelled int64
	}{{"reads cancelled at the deadline", 5}, {"none cancelled", 0}} {
		a := Advise(AdviceInput{Read: hist(400, 5*ms), Turn: hist(100, 100*ms, 5, 800*ms), Turns: 105, Cut: c.cancelled,
			Cancelled: c.cancelled, Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second})
		above := 0
		for _, l := range a.Timeouts {
			want := c.cancelled > 0 && l.Limit > 800*ms
			if l.AtLeast != want {
				t.Errorf("%s: the %v timeout's share is a lower bound: %v, want %v", c.name, l.Limit, l.AtLeast, want)
			}
			if l.Limit > 800*ms {
				above++
			}
		}
		if above == 0 {
			t.Fatalf("%s: no timeout candidate above the deadline: %+v", c.name, a.Timeouts)
		}
	}
}
