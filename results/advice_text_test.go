package results

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// adviceHist records n values of d for each (n, d) pair.
func adviceHist(pairs ...any) *stats.Histogram {
	h := stats.NewHistogram()
	for i := 0; i+1 < len(pairs); i += 2 {
		for range pairs[i].(int) {
			h.Record(pairs[i+1].(time.Duration))
		}
	}
	return h
}

// TestAdviceReasoning: the sentences say what stats.Advise computed (its
// maths is tested in stats), in the reports' number format.
func TestAdviceReasoning(t *testing.T) {
	const ms = time.Millisecond
	for _, c := range []struct {
		name string // what the case proves
		in   stats.AdviceInput
		want []string // substrings some line must contain
	}{
		{
			name: "a 40 ms read p99 and 4 parallel reads: the timeout's rule, the turn quantiles and the median's odds",
			in: stats.AdviceInput{
				Read:  adviceHist(9850, 12*ms, 150, 40*ms),
				Turn:  adviceHist(2425, 20*ms, 75, 70*ms),
				Turns: 2500, Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			want: []string{"max(100 x read p99 40.0ms, 10 x read max 40.0ms, 1.00s)", "P(turn <= d) = P(read <= d)^4",
				"p96.06 (0.99^4)", "p99.75", "measured turn p99 70.0ms", "0.5^4 = 6.2%",
				"Deadlines above 800ms cannot be priced"},
		},
		{
			name: "cut turns: the bound on longer deadlines, the floor, few samples, lower bounds, the raised timeout",
			in: stats.AdviceInput{
				Read: adviceHist(400, 5*ms), Turn: adviceHist(100, 100*ms, 5, 800*ms),
				Turns: 105, Cut: 5, Cancelled: 5, Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			want: []string{"would cut at most 4.8%", "is a floor", "rests on 105 samples (fewer than 1000; its slowest 2 decide it)",
				"lower bounds", "raised to the deadline"},
		},
		{
			name: "timeouts: the configured timeout's share",
			in: stats.AdviceInput{
				Read: adviceHist(100, 20*ms), Turn: adviceHist(25, 30*ms), Turns: 25, Timeouts: 5,
				Parallel: 4, ReadTimeout: 5 * time.Second,
			},
			want: []string{"timeout 5.00s ended 4.8% of reads"},
		},
		{
			name: "one stall seen: 10 x the slowest answer is quoted",
			in: stats.AdviceInput{
				Read: adviceHist(2000, 5*ms, 1, 2*time.Second), Turn: adviceHist(2000, 10*ms), Turns: 2000, Parallel: 1,
			},
			want: []string{"10 x read max 2.00s", "1 parallel reads"},
		},
		{
			name: "every read cancelled: nothing recommended from turns that served no document",
			in: stats.AdviceInput{
				Read: adviceHist(), Turn: adviceHist(20, 100*ms), Turns: 20, Cut: 20, Cancelled: 40, Sent: 40,
				Parallel: 2, Deadline: 100 * ms, ReadTimeout: 5 * time.Second,
			},
			want: []string{"No deadline or timeout is recommended: only 0 of the 40 reads sent (expected errors aside) were answered with a document"},
		},
		{
			name: "every read failed fast (no resources/read): nothing recommended, the count said",
			in: stats.AdviceInput{
				Read: adviceHist(), Turn: adviceHist(500, 2*ms), Turns: 500, Sent: 2000,
				Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			want: []string{"only 0 of the 2,000 reads sent", "never on errors"},
		},
		{
			name: "most reads not found: nothing recommended from the few documents",
			in: stats.AdviceInput{
				Read: adviceHist(120, 15*ms), Turn: adviceHist(720, 3*ms), Turns: 720, Sent: 2880, Expected: 0,
				Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			want: []string{"only 120 of the 2,880 reads sent"},
		},
		{
			name: "a short run: too few documents for a tail",
			in: stats.AdviceInput{
				Read: adviceHist(52, 15*ms), Turn: adviceHist(13, 20*ms), Turns: 13, Sent: 52,
				Parallel: 4, Deadline: 800 * ms, ReadTimeout: 5 * time.Second,
			},
			want: []string{"only 52 reads were answered with a document, fewer than the 100 a read tail needs"},
		},
		{
			name: "no samples: says so, and no NaN",
			in:   stats.AdviceInput{Deadline: 800 * ms, ReadTimeout: 5 * time.Second, Parallel: 4},
			want: []string{"No deadline or timeout is recommended: only 0 reads"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			all := strings.Join(adviceReasoning(stats.Advise(c.in)), "\n")
			if strings.Contains(all, "read median 0") {
				t.Errorf("a median of no reads quoted as 0:\n%s", all)
			}
			for _, s := range c.want {
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
