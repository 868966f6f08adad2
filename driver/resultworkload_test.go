package driver

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// TestResultWorkloadWithoutSecrets: the workload a result records says
// what ran, every value as its text, and keeps none of its secrets: a
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
	rw := resultWorkload(w)
	b, err := json.Marshal(rw)
	must(err)
	for _, secret := range []string{secretHeader, "s3cr3t", secretPassword, clientSecret} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the recorded workload contains the secret %q: %s", secret, b)
		}
	}
	if rw.Headers["Authorization"] != results.Redacted {
		t.Errorf("headers %v: the name stays, the value is redacted", rw.Headers)
	}
	if a := rw.Auth; a == nil || a.OAuth.ClientSecret != results.Redacted || a.OAuth.ClientID != "loadtest" || a.OAuth.Grant != "client_credentials" {
		t.Errorf("auth %+v: the client stays, its secret is redacted", a)
	}
	if rw.Target != "https://bench:xxxxx@staging.example.com/mcp" {
		t.Errorf("target %q", rw.Target)
	}
	if l := rw.Load; l.Rate != "50/s" || l.RatePerS != 50 || l.Warmup != "2s" || l.Duration != "10s" || l.Closed() {
		t.Errorf("load %+v", l)
	}
	if s := rw.Load.Stages; len(s) != 1 || s[0].Rate != "50/s" || s[0].For != "10s" || !s[0].Ramp {
		t.Errorf("stages %+v", s)
	}
	if tr := rw.Turn; tr.Attachments != 4 || tr.Deadline != "800ms" || tr.ReadTimeout != "5s" || tr.MaxAnswer != units.FormatSize(targets.DefaultMaxAnswer) {
		t.Errorf("turn %+v", tr)
	}
	if md := rw.Mix[0]; md.Size != "lognormal(8KiB,200KiB)" || md.Delay != "lognormal(12ms,40ms)" || md.Weight != 70 {
		t.Errorf("mix[0] %+v", md)
	}
	if pol := rw.Mix[1]; pol.Expect != "not_found" || pol.Size != "" || pol.URIs == nil {
		t.Errorf("mix[1] %+v", pol)
	}
}

// TestResultWorkloadClosed: the document's LoadSpec.Closed, which the
// reports word the load line by, knows the workload file's name of the
// closed model (results cannot import workload to ask it).
func TestResultWorkloadClosed(t *testing.T) {
	for model, want := range map[string]bool{workload.ModelClosed: true, workload.ModelOpen: false} {
		w := &workload.Workload{Load: workload.Load{Model: model}}
		if got := resultWorkload(w).Load.Closed(); got != want {
			t.Errorf("model %q: Closed() = %v, want %v", model, got, want)
		}
	}
}
