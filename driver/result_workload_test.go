package driver

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// TestResultWorkloadWithoutSecrets: the workload a run's result records
// says what ran and keeps none of its secrets, in the file or in memory: a
// header keeps its name and loses its value, a target URL its password.
func TestResultWorkloadWithoutSecrets(t *testing.T) {
	const secretHeader, secretPassword, clientSecret = "Bearer s3cr3t-token-xyz", "hunter2", "cl13nt-s3cr3t"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	rate, err := units.ParseRate("50/s")
	must(err)
	size, err := units.ParseSizeDist("lognormal(8KiB, 200KiB)")
	must(err)
	delay, err := units.ParseDurationDist("lognormal(12ms, 40ms)")
	must(err)
	w := &workload.Workload{
		Name:     "docs-attachments",
		Target:   targets.Target{Kind: targets.HTTP, Address: "https://bench:" + secretPassword + "@staging.example.com/mcp"},
		Protocol: "auto", Sessions: 2, Seed: 42,
		Load: workload.Load{
			Model: workload.ModelOpen, Rate: rate, Arrival: workload.ArrivalConstant,
			Warmup: 2 * time.Second, Duration: 10 * time.Second, MaxInFlight: 1000,
			Stages: []workload.Stage{{Rate: rate, For: 10 * time.Second, Ramp: true}},
		},
		Turn: workload.Turn{
			Attachments: workload.Attachments{Fixed: 4},
			ReadTimeout: 5 * time.Second, Deadline: 800 * time.Millisecond,
		},
		Mix: []workload.Class{
			{Name: "markdown", Weight: 70, MIME: "text/markdown", Size: &size, Delay: &delay},
			{Name: "renamed-policy", Weight: 5, URI: "docs://team/platform/policy/on-call-escalation", Expect: "not_found"},
		},
		Headers:    map[string]string{"Authorization": secretHeader},
		AllowHosts: []string{"staging.example.com"},
		Thresholds: []workload.Threshold{{Metric: "turn.p99", Bound: "<800ms"}},
		Auth:       &workload.Auth{OAuth: &workload.OAuth{ClientID: "loadtest", ClientSecret: clientSecret, Scope: "mcp:read"}},
	}
	rep := &measurements{Workload: w, Meta: results.Meta{Target: results.Target{Address: w.Target.String(), Transport: w.Target.Transport()}}, MeasuredPhase: stats.NewRecorder(nil).Phase()}
	res, err := rep.result(results.Tool{Name: "readbench", Version: "test"})
	must(err)
	b, err := res.Marshal()
	must(err)
	rw := res.Workload
	for _, secret := range []string{secretHeader, "s3cr3t", secretPassword, clientSecret} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the recorded workload contains the secret %q: %s", secret, b)
		}
	}
	var saved struct{ Workload map[string]any }
	must(json.Unmarshal(b, &saved))
	if h := saved.Workload["headers"].(map[string]any); h["Authorization"] != workload.Redacted || rw.Headers["Authorization"] != workload.Redacted {
		t.Errorf("headers %v: the name stays, the value is redacted", rw.Headers)
	}
	if a := rw.Auth; a == nil || a.OAuth.ClientSecret != workload.Redacted || a.OAuth.ClientID != "loadtest" {
		t.Errorf("auth %+v: the client stays, its secret is redacted", a)
	}
	if rw.Target.Address != "https://bench:xxxxx@staging.example.com/mcp" {
		t.Errorf("target %q", rw.Target)
	}
	if l := rw.Load; l.Rate.String() != "50/s" || l.Warmup != 2*time.Second || l.Duration != 10*time.Second || l.Closed() {
		t.Errorf("load %+v", l)
	}
	if s := rw.Load.Stages; len(s) != 1 || s[0].Rate.String() != "50/s" || s[0].For != 10*time.Second || !s[0].Ramp {
		t.Errorf("stages %+v", s)
	}
	if tr := rw.Turn; tr.Attachments.Fixed != 4 || tr.Deadline != 800*time.Millisecond || tr.ReadTimeout != 5*time.Second || tr.Limit() != tr.Deadline {
		t.Errorf("turn %+v", tr)
	}
	if md := rw.Mix[0]; md.SizeText() != "lognormal(8KiB,200KiB)" || md.Delay.String() != "lognormal(12ms,40ms)" || md.Weight != 70 {
		t.Errorf("mix[0] %+v", md)
	}
	if pol := rw.Mix[1]; pol.Expect != "not_found" || pol.SizeText() != "" {
		t.Errorf("mix[1] %+v", pol)
	}
}

// TestResultWorkloadClosed: the workload's Load.Closed, which the reports
// word the load line by, knows the closed model.
func TestResultWorkloadClosed(t *testing.T) {
	for model, want := range map[string]bool{workload.ModelClosed: true, workload.ModelOpen: false} {
		if got := (workload.Load{Model: model}).Closed(); got != want {
			t.Errorf("model %q: Closed() = %v, want %v", model, got, want)
		}
	}
}
