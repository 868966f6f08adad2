package stats

import (
	"strings"
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

func TestAdvise(t *testing.T) {
	for _, c := range []struct {
		name           string // what the case proves
		in             AdviceInput
		deadline       time.Duration
		timeout        time.Duration
		deadlineShares map[time.Duration]float64 // candidate -> share; a negative share: must be absent
		timeoutShares  map[time.Duration]float64
		reasoning      []string // substrings some line must contain
	}{
		{
			name: "the seed's server (12 ms median, 40 ms p99, 4 parallel reads) gets a 5 s timeout " +
				"and a deadline on the turn tail, not the median",
			in: AdviceInput{
				Read:  hist(9850, 12*ms, 150, 40*ms),
				Turn:  hist(2425, 20*ms, 75, 70*ms),
				Turns: 2500, Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			deadline: 200 * ms, timeout: 5 * time.Second,
			deadlineShares: map[time.Duration]float64{100 * ms: 0, 800 * ms: 0, time.Second: -1},
			timeoutShares:  map[time.Duration]float64{100 * ms: 0, 5 * time.Second: 0, 10 * time.Second: -1},
			reasoning: []string{"max(100 x read p99 40 ms, 10 x read max 40 ms, 1 s)", "P(turn <= d) = P(read <= d)^4",
				"p96.06 (0.99^4)", "p99.75", "measured turn p99 70 ms", "0.5^4 = 6.2%",
				"Deadlines above 800 ms cannot be priced"},
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
			reasoning: []string{"would cut at most 4.8%", "is a floor", "rests on 105 samples (fewer than 1000; its slowest 2 decide it)",
				"lower bounds", "raised to the deadline"},
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
			reasoning: []string{"timeout 5 s ended 4.8% of reads"},
		},
		{
			name: "one stall seen keeps the timeout above it: 10 x the slowest answer wins over 100 x p99",
			in: AdviceInput{
				Read: hist(2000, 5*ms, 1, 2*time.Second), Turn: hist(2000, 10*ms), Turns: 2000, Parallel: 1,
			},
			deadline: 20 * ms, timeout: 20 * time.Second,
			reasoning: []string{"10 x read max 2 s", "1 parallel reads"},
		},
		{
			name:     "no samples: no recommendation and no division by zero",
			in:       AdviceInput{Deadline: 800 * ms, ReadTimeout: 5 * time.Second, Parallel: 4},
			deadline: 0, timeout: 0,
			deadlineShares: map[time.Duration]float64{800 * ms: 0},
			reasoning:      []string{"No read answered", "No turn finished"},
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
			all := strings.Join(a.Reasoning, "\n")
			for _, s := range c.reasoning {
				if !strings.Contains(all, s) {
					t.Errorf("reasoning lacks %q:\n%s", s, all)
				}
			}
			if strings.Contains(all, "NaN") || strings.Contains(all, "Inf") {
				t.Errorf("reasoning has NaN or Inf:\n%s", all)
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
		{4 * time.Second, 5 * time.Second},  // the seed's 100 x 40 ms
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
