package workload_test

import (
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
	"testing"
	"time"

	"github.com/readbench/readbench/units"
)

// sweepWorkload has a sized class and one named by URI, which a size
// sweep must leave alone.
func sweepWorkload(t *testing.T, load string) *workload.Workload {
	t.Helper()
	w, err := yamlfile.Parse("sweep.yaml", []byte(`
name: sweep
load: `+load+`
turn: {attachments: 1, read_timeout: 5s, deadline: 10s}
mix:
  - {class: png, mime: image/png, size: 1834208, weight: 1}
  - {class: md, uri: "docs://onboarding/engineering", weight: 1}
`))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestOpenLoad(t *testing.T) {
	for _, c := range []struct {
		name, load string
		hadRate    bool
		rate       float64
	}{
		{"a rate of its own is kept", "{rate: 40/s, duration: 1m}", true, 40},
		{"stages give way to a placeholder rate", "{stages: [{rate: 10/s, for: 10s}]}", false, 1},
		{"turns give way to the duration", "{rate: 5/s, turns: 100}", true, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := sweepWorkload(t, c.load)
			hadRate := w.OpenLoad(5 * time.Second)
			if hadRate != c.hadRate {
				t.Errorf("hadRate = %v, want %v", hadRate, c.hadRate)
			}
			l := w.Load
			if l.Model != workload.ModelOpen || l.Stages != nil || l.Turns != 0 || l.Duration != 5*time.Second || l.Rate.PerSecond != c.rate {
				t.Errorf("load %+v: want the open model at %v/s for 5s", l, c.rate)
			}
			if err := w.Validate(); err != nil {
				t.Errorf("the search's workload does not validate: %v", err)
			}
		})
	}
}

func TestSized(t *testing.T) {
	if !sweepWorkload(t, "{rate: 1/s, duration: 1s}").Sized() {
		t.Error("Sized = false for a workload with a mime and size class")
	}
	w := sweepWorkload(t, "{rate: 1/s, duration: 1s}")
	w.Mix = w.Mix[1:]
	if w.Sized() {
		t.Error("Sized = true for a workload of URIs alone")
	}
}

// TestStep: a step is the base at its rate (and size), over its
// warmup and duration; the base stays as it was for the next step.
func TestStep(t *testing.T) {
	base := sweepWorkload(t, "{rate: 40/s, duration: 1m, warmup: 10s}")
	for _, c := range []struct {
		name string
		rate float64
		size int64
		want *units.Dist // the png class's size in the step
	}{
		{"a rate step keeps the sizes", 123.456, 0, base.Mix[0].Size},
		{"a size step sets every sized class", 2, 4 << 20, &units.Dist{Kind: units.DistFixed, A: 4 << 20, Unit: units.UnitBytes}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := base.Step(c.rate, c.size, time.Second, 3*time.Second)
			if w == base {
				t.Fatal("Step returned the base itself")
			}
			l := w.Load
			if l.Model != workload.ModelOpen || l.Rate.PerSecond != c.rate || l.Warmup != time.Second || l.Duration != 3*time.Second {
				t.Errorf("load %+v", l)
			}
			if c.rate == 123.456 && l.Rate.Text != "123/s" {
				t.Errorf("rate text %q, want three significant digits", l.Rate.Text)
			}
			if *w.Mix[0].Size != *c.want {
				t.Errorf("png size %+v, want %+v", *w.Mix[0].Size, *c.want)
			}
			if w.Mix[1].Size != nil {
				t.Errorf("the URI class got a size: %+v", w.Mix[1].Size)
			}
			if err := w.Validate(); err != nil {
				t.Errorf("the step's workload does not validate: %v", err)
			}
		})
	}
	if base.Load.Rate.PerSecond != 40 || base.Load.Warmup != 10*time.Second || base.Mix[0].Size.A != 1834208 {
		t.Errorf("the base changed: load %+v, png size %+v", base.Load, *base.Mix[0].Size)
	}
}

// TestStepKeepsSessionKeys: a capacity step runs with the workload's
// session churn and connect keys, so capacity can search with churn on.
func TestStepKeepsSessionKeys(t *testing.T) {
	base := &workload.Workload{Load: workload.Load{SessionTurns: 20, SessionLifetime: time.Minute, MinSessions: 3, ConnectRate: units.Rate{PerSecond: 5, Text: "5/s"}}}
	s := base.Step(40, 0, 0, 5*time.Second).Load
	if s.SessionTurns != 20 || s.SessionLifetime != time.Minute || s.MinSessions != 3 || s.ConnectRate.PerSecond != 5 {
		t.Errorf("step load %+v: the session keys were lost", s)
	}
}
