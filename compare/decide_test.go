package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/results"
)

// TestDecide: one estimate decides a bound — broken by a significant
// estimate beyond it, held when its whole interval is within the limit,
// otherwise not answered, which fails unless the gate lets it pass (and
// then says so); an untested figure is held to the figures as measured.
func TestDecide(t *testing.T) {
	b, err := bounds.ParseBounds("read.p50=+10%")
	if err != nil {
		t.Fatal(err)
	}
	tested := func(change, low, high, p float64) Estimate {
		return Estimate{Tested: true, Units: "windows", N: 24, Change: change, Low: low, High: high, P: p, Alpha: 0.01}
	}
	for _, c := range []struct {
		name    string
		est     Estimate
		gate    Gate
		pass    bool
		verdict string
		noise   Noise
		reason  string
	}{
		{"30% slower", tested(3, 2.5, 3.5, 1e-9), Gate{FailOnInconclusive: true}, false, VerdictFail, Significant, "broken: estimate 13.0ms (+30.0%)"},
		{"the same", tested(0.05, -0.3, 0.4, 0.7), Gate{FailOnInconclusive: true}, true, VerdictPass, WithinNoise, "held: the whole interval is within the limit"},
		{"beyond, not significant", tested(1.5, -0.5, 3.5, 0.2), Gate{FailOnInconclusive: true}, false, VerdictInconclusive, WithinNoise, "not answered, could not tell"},
		// The case: the estimate within the bound, the interval
		// past it. It passed as "held by its estimate"; it is open.
		{"within, the interval past the limit", tested(0.5, -0.4, 1.4, 0.3), Gate{FailOnInconclusive: true}, false, VerdictInconclusive, WithinNoise, "interval 9.60ms .. 11.4ms"},
		{"open, let pass", tested(0.5, -0.4, 1.4, 0.3), Gate{}, true, VerdictInconclusive, WithinNoise, "(passed by --fail-on-inconclusive=false)"},
		{"significant, within", tested(0.5, 0.2, 0.8, 0.001), Gate{FailOnInconclusive: true}, true, VerdictPass, Significant, "held"},
		{"untested, within", Estimate{Change: 0.5, Why: "a maximum is one value"}, Gate{FailOnInconclusive: true}, true, VerdictPass, Untested, "held by the figures as measured (a maximum is one value)"},
		{"untested, beyond", Estimate{Change: 2, Why: "a maximum is one value"}, Gate{FailOnInconclusive: true}, false, VerdictInconclusive, Untested, "beyond the bound with no test: a maximum is one value"},
		{"too few, within", Estimate{TooFew: true, Change: 0.5, Why: "one run per side"}, Gate{FailOnInconclusive: true}, false, VerdictInconclusive, Inconclusive, "not answered, too few to tell: one run per side"},
		{"unchanged", tested(0, 0, 0, 1), Gate{FailOnInconclusive: true}, true, VerdictPass, Unchanged, ""},
	} {
		bc := Decide(b[0], "ms", 10, c.est, c.gate)
		if bc.Pass != c.pass || bc.Verdict != c.verdict || bc.Noise != c.noise || !strings.Contains(bc.Reason, c.reason) {
			t.Errorf("%s: pass %v verdict %q noise %q reason %q; want %v %q %q %q", c.name, bc.Pass, bc.Verdict, bc.Noise, bc.Reason, c.pass, c.verdict, c.noise, c.reason)
		}
		if bc.New != 10+c.est.Change || (c.est.Tested && (bc.Low != 10+c.est.Low || bc.High != 10+c.est.High)) {
			t.Errorf("%s: new %v [%v, %v]: want the estimate and its interval", c.name, bc.New, bc.Low, bc.High)
		}
	}
}

// TestCheckBoundsOneEstimator: the bound is held to the estimate of the
// test that gives its interval and significance, never to the medians of
// the runs. Six rounds whose read.p50 rose by 10%, 10%, 10%, −10%, −10%
// and +30%: the medians say +10% (beyond a +8% bound), the trimmed mean
// of the rounds' log-ratios +4.6%; the check says +4.6% and, its
// interval reaching past +8%, not answered.
func TestCheckBoundsOneEstimator(t *testing.T) {
	var base, nw []Labelled
	for i, ratio := range []float64{1.1, 1.1, 1.1, 0.9, 0.9, 1.3} {
		b, n := loadFixture(t), loadFixture(t)
		b.Read.P50Ms, n.Read.P50Ms = 10, 10*ratio
		base, nw = append(base, Labelled{Label: string(rune('a' + i)), Result: b}), append(nw, Labelled{Label: string(rune('A' + i)), Result: n})
	}
	c := mustCompareRuns(t, base, nw, RunsOptions{NoiseFloor: -1, Paired: true, Alpha: 0.05, Gate: Gate{FailOnInconclusive: true}})
	d, _ := c.Find("read.p50")
	bc := gateOf(t, c, "read.p50=+8%", base, nw)[0]
	want := 10 * math.Exp((math.Log(0.9)+3*math.Log(1.1))/4)
	if d.New != 11 || math.Abs(bc.New-want) > 1e-9 || bc.Verdict != VerdictInconclusive || bc.Pass || bc.Units != "rounds" || bc.Pairs != 6 {
		t.Errorf("medians %v -> %v; check %+v: want new %.3f (the paired estimate), not answered", d.Base, d.New, bc, want)
	}
}

// TestGateLevel: the gate's false alarms are shared among its bounds and
// looks: the README's gate (three bounds, one look) tests each bound at
// 3.3% two-sided, ab's six looks at 0.56%.
func TestGateLevel(t *testing.T) {
	for _, c := range []struct {
		bounds, looks int
		want          float64
	}{{1, 1, 0.1}, {3, 1, 0.1 / 3}, {3, 6, 0.1 / 18}, {0, 0, 0.1}} {
		if got := GateLevel(c.bounds, c.looks); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%d bounds, %d looks: %v, want %v", c.bounds, c.looks, got, c.want)
		}
	}
	// compare tests each bound at the gate's level.
	base, nw := loadFixture(t), loadFixture(t)
	c := mustCompareRuns(t, []Labelled{{Label: "a", Result: base}}, []Labelled{{Label: "b", Result: nw}}, RunsOptions{})
	bs, _ := bounds.ParseBounds("read.p50=+10%,errors=+1pp")
	if _, err := CheckBounds(c, bs, base, nw); err != nil || c.Gate.Level != 0.05 || c.Gate.HoldLevel != 0.1 {
		t.Errorf("levels %v and %v (%v), want 0.05 for two bounds to break, 0.1 to hold", c.Gate.Level, c.Gate.HoldLevel, err)
	}
}

// TestAnswerOf: compare's views lead with its answer: a regression, no
// regression, or not answered (failing unless let pass), and the runs'
// CPU pressure when it was contended.
func TestAnswerOf(t *testing.T) {
	p := 0.97
	c := &Comparison{Base: Side{Runs: []string{"a", "b", "c", "d", "e"}}, New: Side{Runs: []string{"f", "g", "h", "i", "j"}},
		Gate:   Gate{FailOnInconclusive: true},
		Bounds: []BoundCheck{{Bound: "read.p50=+10%", Verdict: VerdictInconclusive}, {Bound: "errors=+0.5pp", Verdict: VerdictPass, Pass: true}}}
	a := AnswerOf(c, &p)
	if a.Answered || !strings.HasPrefix(a.Line, "the regression question was not answered: read.p50=+10% could not be told apart from the noise (5 runs against 5; it fails the gate)") ||
		!strings.HasSuffix(a.Line, "the CPU was contended 97% of the time (median of the runs)") {
		t.Errorf("open: %+v", a)
	}
	c.Bounds[0].Verdict = VerdictFail
	if a := AnswerOf(c, nil); !a.Answered || !strings.HasPrefix(a.Line, "answered: a regression (read.p50=+10% broken)") {
		t.Errorf("broken: %+v", a)
	}
	c.Bounds[0].Verdict, c.Bounds[0].Pass = VerdictPass, true
	if a := AnswerOf(c, nil); !a.Answered || !strings.HasPrefix(a.Line, "answered: no regression") {
		t.Errorf("held: %+v", a)
	}
	if AnswerOf(&Comparison{}, nil) != nil {
		t.Error("an answer without bounds")
	}
	r := loadFixture(t)
	r.Host.CPUPressure = &p
	if m := MedianPressure([]*results.Result{r, loadFixture(t)}); m == nil || *m != p {
		t.Errorf("median pressure %v", m)
	}
}
