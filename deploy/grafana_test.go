package deploy

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// dashboard is the part of the Grafana dashboard (grafana/readbench.json)
// the test reads: its panels' queries.
type dashboard struct {
	Panels []struct {
		Title   string `json:"title"`
		Targets []struct {
			RefID    string `json:"refId"`
			Expr     string `json:"expr"`
			Exemplar bool   `json:"exemplar"`
		} `json:"targets"`
	} `json:"panels"`
}

// The histograms whose buckets carry a read's trace id (docs/metrics.md,
// exemplars) have one query each that asks Prometheus for them, on the
// panel that shows them, so that a dot on the latency graph leads to the
// trace; the histograms without exemplars ask for none (one query per
// histogram, or Grafana draws every exemplar twice).
func TestDashboardExemplars(t *testing.T) {
	b, err := os.ReadFile("grafana/readbench.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bucket string // the series a query reads
		panel  string // the panel its exemplars show on ("": none)
	}{
		{"readbench_read_latency_seconds_bucket", "Read latency by class (measured)"},
		{"readbench_read_service_seconds_bucket", "Turn latency and service time (measured)"},
		{"readbench_turn_latency_seconds_bucket", ""},
		{"readbench_schedule_lag_seconds_bucket", ""},
	} {
		var on []string // panel/refId of the queries of tc.bucket asking for exemplars
		queried := false
		for _, p := range d.Panels {
			for _, tg := range p.Targets {
				if !strings.Contains(tg.Expr, tc.bucket+"{") {
					continue
				}
				queried = true
				if tg.Exemplar {
					on = append(on, p.Title+"/"+tg.RefID)
				}
			}
		}
		if !queried {
			t.Errorf("%s: no query reads it", tc.bucket)
			continue
		}
		switch {
		case tc.panel == "" && len(on) > 0:
			t.Errorf("%s carries no exemplars, but %v ask for them", tc.bucket, on)
		case tc.panel != "" && (len(on) != 1 || !strings.HasPrefix(on[0], tc.panel+"/")):
			t.Errorf("%s: exemplars asked by %v, want one query of panel %q", tc.bucket, on, tc.panel)
		}
	}
}
