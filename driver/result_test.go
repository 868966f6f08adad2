package driver

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// testWorkload is a small workload for building results without a run.
func testWorkload(t *testing.T, target string) *workload.Workload {
	t.Helper()
	w, err := yamlfile.Parse("result.yaml", []byte(`
name: result
target: `+target+`
load: {rate: 20/s, duration: 2s, warmup: 1s}
turn: {attachments: 1, read_timeout: 5s, deadline: 10s}
sessions: 2
mix:
  - {class: md, uri: "docs://onboarding/engineering"}
`))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestReportResult: every fact of a finished run the driver reports
// reaches the result document, in the document's form.
func TestReportResult(t *testing.T) {
	w := testWorkload(t, `"http://user:secret@127.0.0.1:8080/mcp"`)
	started := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	classes := []stats.ClassInfo{{Name: "md"}}
	rep := &measurements{
		Workload: w,
		Meta: results.Meta{
			Segment: results.Segment{K: 2, N: 3},
			Started: started, Ended: started.Add(3 * time.Second), Measured: 2 * time.Second, Partial: true,
			Target: results.Target{Address: w.Target.String(), Transport: w.Target.Transport(),
				Server: results.Server{Name: "sim", Version: "1.2.3"}, ProtocolVersion: "2025-11-25"},
			AskedRate: 20.0 / 3, LateObservable: true, LateWatch: 250 * time.Millisecond,
			GeneratorPeakRSS: 64 << 20, GeneratorCPU: 1500 * time.Millisecond,
			Digests: map[string]results.Digest{"docs://a": {SHA256: "sha256:" + strings.Repeat("0", 64), MIME: "text/markdown", Bytes: 42}},
		},
		MeasuredPhase: stats.NewRecorder(classes).Phase(), Warmup: stats.NewRecorder(classes).Phase(),
	}
	res, err := rep.result(results.Tool{Name: "readbench", Version: "9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"tool", res.Tool, results.Tool{Name: "readbench", Version: "9.9.9"}},
		{"started", res.Started.Time.UTC(), started},
		{"ended", res.Ended.Time.UTC(), started.Add(3 * time.Second)},
		{"partial", res.Partial, true},
		{"address, its password masked", strings.Contains(res.Target.Address, "secret"), false},
		{"transport", res.Target.Transport, "http"},
		{"server", res.Target.Server, results.Server{Name: "sim", Version: "1.2.3"}},
		{"protocol version", res.Target.ProtocolVersion, "2025-11-25"},
		{"asked rate", res.Totals.AskedRate, 20.0 / 3},
		{"measured", res.Totals.MeasuredS, 2.0},
		{"late observable", res.Cancellation.Observable, true},
		{"late watch", res.Cancellation.LateWatchMs, 250.0},
		{"generator memory", res.Generator.PeakRSSBytes, int64(64 << 20)},
		{"generator cpu", res.Generator.CPUSeconds, 1.5},
		{"digests", res.Digests["docs://a"], results.Digest{SHA256: "sha256:" + strings.Repeat("0", 64), MIME: "text/markdown", Bytes: 42}},
		{"segment", res.Segment, results.Segment{K: 2, N: 3}},
		{"the whole workload, not the shard's share", res.Workload.Sessions, 2},
		{"identity", res.Totals.IdentityOK, true},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, c.got, c.want)
		}
	}
}

// TestReportResultNeedsWorkload: a report that does not say what it ran
// cannot become a result.
func TestReportResultNeedsWorkload(t *testing.T) {
	rep := &measurements{MeasuredPhase: stats.NewRecorder(nil).Phase()}
	if _, err := rep.result(results.Tool{}); err == nil || !strings.Contains(err.Error(), "build result") {
		t.Fatalf("Result without a workload: err = %v, want a build result error", err)
	}
}

// TestResultIdentity: a read the recorder lost, in either phase, reaches
// the result document as a broken identity (results.Result.Identity, the
// one check every command judges a saved result by).
func TestResultIdentity(t *testing.T) {
	lost := func() *stats.Phase {
		r := stats.NewRecorder(nil)
		r.Schedule(1) // a read scheduled, and no outcome for it
		return r.Phase()
	}
	whole := func() *stats.Phase { return stats.NewRecorder(nil).Phase() }
	for _, c := range []struct {
		name        string
		run, warmup *stats.Phase
		want        string // "" when the identity holds
	}{
		{"both phases hold", whole(), whole(), ""},
		{"a read lost in the measured phase", lost(), whole(), "measured phase: accounting identity broken"},
		{"a read lost in the warmup", whole(), lost(), "warmup phase: accounting identity broken"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := (&measurements{Workload: testWorkload(t, "embedded"), MeasuredPhase: c.run, Warmup: c.warmup}).result(results.Tool{})
			if err != nil {
				t.Fatal(err)
			}
			err = res.Identity()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Identity = %v, want nil", err)
			case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
				t.Fatalf("Identity = %v, want %q...", err, c.want)
			}
			if res.Totals.IdentityOK != !strings.HasPrefix(c.want, "measured") {
				t.Errorf("identity_ok %v for %s", res.Totals.IdentityOK, c.name)
			}
		})
	}
}
