package results

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/stats"
)

// TestNoShareWithoutADivisor: every share of the document (the error
// rate, the reads a host would not have sent, the advice's priced
// limits) is null when nothing is under it, and its value otherwise.
func TestNoShareWithoutADivisor(t *testing.T) {
	empty := totals(Meta{Measured: time.Second}, stats.NewRun(nil))
	if empty.ErrorRate != nil {
		t.Errorf("error_rate of no scheduled read = %v, want null", deref(empty.ErrorRate))
	}
	dropped := stats.NewRun(nil)
	dropped.Scheduled, dropped.Outcomes[stats.Dropped] = 4, 4
	if got := totals(Meta{Measured: time.Second}, dropped).ErrorRate; is(got) != 1 {
		t.Errorf("error_rate of 4 dropped of 4 = %v, want 1 (dropped reads are errors)", deref(got))
	}

	for _, c := range []struct {
		name                string
		ok, drop, wouldSkip int64
		want                *float64
	}{
		{name: "every read dropped", drop: 5},
		{name: "no read", want: nil},
		{name: "sent and dropped", ok: 4, drop: 4, wouldSkip: 2, want: figure(0.5)},
		{name: "sent, none skippable", ok: 3, want: figure(0)},
	} {
		cs := &stats.ClassStats{Latency: stats.NewHistogram(), Chunk: stats.NewHistogram(), FirstUsable: stats.NewHistogram()}
		cs.Outcomes[stats.OK], cs.Outcomes[stats.Dropped], cs.Cache.WouldNotSend = c.ok, c.drop, c.wouldSkip
		cl, err := class(cs)
		if err != nil {
			t.Fatal(err)
		}
		if got := cl.Cache.WouldNotSendShare; (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: would_not_send_share = %v, want %v (of the sent reads)", c.name, deref(got), deref(c.want))
		}
	}

	cands := candidates([]stats.Limit{{Limit: time.Second}, {Limit: 2 * time.Second, Share: 0.25, Of: 4}})
	if cands[0].Share != nil || is(cands[1].Share) != 0.25 {
		t.Errorf("candidates %v %v, want null over nothing and 0.25 over 4", deref(cands[0].Share), deref(cands[1].Share))
	}
	b, err := json.Marshal(Advice{Deadlines: cands})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{"ms":1000,"share":null}`) {
		t.Errorf("no null share in %s", b)
	}
	text := strings.Join(adviceReasoning(stats.Advise(stats.AdviceInput{Deadline: time.Second, ReadTimeout: 5 * time.Second})), "\n")
	if !strings.Contains(text, "cut or outlasted - of turns; timeout 5.00s ended - of reads") {
		t.Errorf("advice over nothing does not say '-':\n%s", text)
	}
}

// TestNoShareMetricWithoutReads: a bound on the error or outcome share of
// a result (or class) without reads is held to "not measured", never to 0.
func TestNoShareMetricWithoutReads(t *testing.T) {
	r := &Result{Classes: []Class{{Class: "png"}}}
	for _, name := range []string{"errors", "outcome.timeout", "class.png.errors", "class.png.outcome.timeout"} {
		m, err := bounds.ParseMetric(name)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := r.MetricValue(m); !errors.Is(err, bounds.ErrNotMeasured) {
			t.Errorf("%s of no reads = %v, %v; want not measured", name, v, err)
		}
	}
}
