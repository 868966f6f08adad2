package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestFailedRunSaysTheMachineWasContended: a run that fails by its health
// or a broken bound says, at the end of its exit reason, that the machine
// was contended when host.cpu_pressure reached results.AdviceCaveatPressure
// — and claims nothing under it, nor when the kernel did not say, nor on
// a run that passed (its report's host row says it there). Before issue
// 46 item 5 the reason blamed the server alone whatever the pressure.
func TestFailedRunSaysTheMachineWasContended(t *testing.T) {
	p := func(f float64) *float64 { return &f }
	mostCut := situation{o: stats.OK, latency: 5 * time.Millisecond, bad: 11, badO: stats.Cancelled}
	slow := situation{o: stats.OK, latency: 200 * time.Millisecond}
	fine := situation{o: stats.OK, latency: 5 * time.Millisecond}
	const claim = "the machine was contended (CPU pressure "
	tests := []struct {
		name     string
		s        situation
		free     bool // no thresholds: the health decides
		pressure *float64
		want     results.Exit
		says     string // the reason's claim ("" for none)
	}{
		{"overloaded on a contended machine", mostCut, true, p(0.97), results.Failed, claim + "97.0% of the measured run): other work kept readbench"},
		{"overloaded at the cut-off", mostCut, true, p(results.AdviceCaveatPressure), results.Failed, claim + "50.0%"},
		{"overloaded just under the cut-off", mostCut, true, p(0.49), results.Failed, ""},
		{"overloaded on a quiet machine", mostCut, true, p(0.05), results.Failed, ""},
		{"overloaded, pressure unknown", mostCut, true, nil, results.Failed, ""},
		{"a bound broken on a contended machine", slow, false, p(0.8), results.Failed, claim + "80.0%"},
		{"a bound broken on a quiet machine", slow, false, p(0.1), results.Failed, ""},
		{"passed on a contended machine", fine, true, p(0.99), results.Passed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := jobWorkload(t, tt.free)
			ts, err := Thresholds(w, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := tt.s
			s.pressure = tt.pressure
			job := Job{drive: s.measured,
				Thresholds: ts, Save: Place{Dir: t.TempDir()}}
			if job.Options, err = job.Options.For(w, driver.Overrides{}); err != nil {
				t.Fatal(err)
			}
			done, err := job.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			j := done.Judgement
			said := strings.Contains(j.Reason, claim)
			if j.Exit != tt.want || said != (tt.says != "") || !strings.Contains(j.Reason, tt.says) {
				t.Errorf("judged %v %q; want %v, the claim %q", j.Exit, j.Reason, tt.want, tt.says)
			}
		})
	}
}
