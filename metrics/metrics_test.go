package metrics

import (
	"reflect"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/readbench/readbench/stats"
)

func TestParseBuckets(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []float64
		wantErr string
	}{
		{in: "1ms,5ms, 1s", want: []float64{0.001, 0.005, 1}},
		{in: "500us", want: []float64{0.0005}},
		{in: "5ms,1ms", wantErr: "increasing"},
		{in: "0s", wantErr: "positive"},
		{in: "fast", wantErr: "invalid duration"},
	} {
		got, err := ParseBuckets(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestRunLabelsRedactTarget(t *testing.T) {
	l := RunLabels{Workload: "w", ID: "id", Target: "http://user:secret@host:8080/mcp", ServerName: "s", ServerVersion: "1", Shard: "2/3"}.labels()
	if strings.Contains(l["target"], "secret") {
		t.Errorf("target label holds the password: %q", l["target"])
	}
	want := []string{"run_id", "server_name", "server_version", "shard", "target", "workload"}
	for _, k := range want {
		if _, ok := l[k]; !ok {
			t.Errorf("no %s label in %v", k, l)
		}
	}
	if len(l) != len(want) || l["shard"] != "2/3" || l["workload"] != "w" {
		t.Errorf("labels %v", l)
	}
}

// The runs of a capacity search or an ab carry the label that tells them
// apart, and only that one.
func TestRunLabelsOfParts(t *testing.T) {
	for _, tc := range []struct {
		run  RunLabels
		want map[string]string
	}{
		{RunLabels{Step: "3"}, map[string]string{"step": "3"}},
		{RunLabels{Side: "base", Round: "2"}, map[string]string{"side": "base", "round": "2"}},
	} {
		l := tc.run.labels()
		if len(l) != 6+len(tc.want) {
			t.Errorf("%+v: labels %v", tc.run, l)
		}
		for k, v := range tc.want {
			if l[k] != v {
				t.Errorf("%+v: %s=%q, want %q", tc.run, k, l[k], v)
			}
		}
	}
}

func TestNewRunIDSharedByShards(t *testing.T) {
	at := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	if a, b := NewRunID(at), NewRunID(at); a != b {
		t.Errorf("shards starting together: %q and %q", a, b)
	}
	if a, b := NewRunID(time.Time{}), NewRunID(time.Time{}); a == b {
		t.Errorf("two unsharded runs share %q", a)
	}
}

func TestParseHeaders(t *testing.T) {
	h, err := ParseHeaders("Authorization: Bearer a,b\n\nX-Scope-OrgID: team\n")
	if err != nil || h["Authorization"] != "Bearer a,b" || h["X-Scope-OrgID"] != "team" || len(h) != 2 {
		t.Errorf("%v %v", h, err)
	}
	if _, err := ParseHeaders("no colon"); err == nil {
		t.Error("a line without a colon was accepted")
	}
	if got := headerNames(h); !reflect.DeepEqual(got, []string{"Authorization", "X-Scope-OrgID"}) {
		t.Errorf("names %v", got)
	}
}

// The observers count what the recorder counts: same samples, same
// totals, and the histograms' count is the recorder's.
func TestObserverCountsAsRecorder(t *testing.T) {
	classes := []stats.ClassInfo{{Name: "a"}, {Name: "b"}}
	reg := New(Options{})
	_, measured := reg.Start(RunLabels{ID: "x"}, classes, 10)
	rec := stats.NewRecorder(classes)
	rec.SetObserver(measured)
	samples := []stats.ReadSample{
		{Class: 0, Outcome: stats.OK, Answered: true, Sent: true, Latency: 3 * time.Millisecond, Service: 2 * time.Millisecond, ByteCounts: stats.ByteCounts{WireBytes: 100, DiskBytes: 70}},
		{Class: 1, Outcome: stats.Cancelled, LowerBound: true, Sent: true, Latency: time.Second},
		{Class: 1, Outcome: stats.Dropped},
	}
	for _, s := range samples {
		rec.Read(s)
	}
	rec.Turn(stats.TurnSample{End: stats.TurnCut, Latency: time.Second})
	phase := rec.Phase()
	rec.Read(samples[0]) // after Phase: neither counts it
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := func(name string, match map[string]string) float64 {
		var v float64
		for _, f := range fams {
			if f.GetName() != name {
				continue
			}
		metric:
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if want, ok := match[l.GetName()]; ok && want != l.GetValue() {
						continue metric
					}
				}
				v += m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
			}
		}
		return v
	}
	if got := sum("readbench_reads_total", map[string]string{"phase": "measured"}); got != float64(phase.Outcomes.Total()) {
		t.Errorf("reads %v, recorder %d", got, phase.Outcomes.Total())
	}
	if got := sum("readbench_reads_total", map[string]string{"outcome": "cancelled", "class": "b"}); got != 1 {
		t.Errorf("cancelled reads of b: %v", got)
	}
	if got := sum("readbench_read_latency_seconds", nil); got != float64(phase.Read.Count()) {
		t.Errorf("read latency count %v, recorder %d", got, phase.Read.Count())
	}
	if got := sum("readbench_turns_total", map[string]string{"end": "cut"}); got != 1 {
		t.Errorf("cut turns %v", got)
	}
	if got := sum("readbench_wire_bytes_total", nil); got != float64(phase.WireBytes) {
		t.Errorf("wire bytes %v, recorder %d", got, phase.WireBytes)
	}
}

// The remote-write request carries a histogram as Prometheus's classic
// series, cumulative by le with +Inf equal to the count, and as a native
// histogram only when asked; the run's empty labels are left out.
func TestToWriteHistogram(t *testing.T) {
	reg := New(Options{Buckets: []float64{0.01, 0.1}, Native: true})
	_, measured := reg.Start(RunLabels{ID: "x"}, []stats.ClassInfo{{Name: "a"}}, 0)
	for _, d := range []time.Duration{5 * time.Millisecond, 50 * time.Millisecond, 50 * time.Millisecond, time.Second} {
		measured.ObserveRead(stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Latency: d})
	}
	fams, _ := reg.Gather()
	var hist []*dto.MetricFamily
	for _, f := range fams {
		if f.GetName() == "readbench_read_latency_seconds" {
			hist = append(hist, f)
		}
	}
	for _, native := range []bool{false, true} {
		req := toWrite(hist, 1000, native)
		got := map[string]float64{}
		natives := 0
		for _, ts := range req.Timeseries {
			var name, le, phase string
			for i, l := range ts.Labels {
				if i > 0 && ts.Labels[i-1].Name > l.Name {
					t.Errorf("labels not sorted: %v", ts.Labels)
				}
				if l.Value == "" {
					t.Errorf("label %s empty (no label): %v", l.Name, ts.Labels)
				}
				switch l.Name {
				case "__name__":
					name = l.Value
				case "le":
					le = l.Value
				case "phase":
					phase = l.Value
				}
			}
			if phase != PhaseMeasured {
				continue // the warmup's series, empty
			}
			if len(ts.Histograms) > 0 {
				natives++
				if c := ts.Histograms[0].GetCountInt(); c != 4 {
					t.Errorf("native count %d", c)
				}
				continue
			}
			got[name+le] = ts.Samples[0].Value
		}
		want := map[string]float64{
			"readbench_read_latency_seconds_bucket0.01": 1, "readbench_read_latency_seconds_bucket0.1": 3,
			"readbench_read_latency_seconds_bucket+Inf": 4, "readbench_read_latency_seconds_count": 4,
			"readbench_read_latency_seconds_sum": 1.105,
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("native=%v: classic series %v, want %v", native, got, want)
		}
		if wantN := map[bool]int{false: 0, true: 1}[native]; natives != wantN {
			t.Errorf("native=%v: %d native histograms", native, natives)
		}
	}
}

// BenchmarkObserveRead is the cost --metrics adds to each read recorded,
// with classic buckets only and with native histograms too; untraced
// reads, traced reads as a busy bucket sees them (most within the
// exemplar gap of the last one it took: the steady state), and traced
// reads each past the gap (every one an exemplar: the bound).
func BenchmarkObserveRead(b *testing.B) {
	base := stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Sent: true, Latency: 3 * time.Millisecond,
		Service: 2 * time.Millisecond, Lag: 20 * time.Microsecond, ByteCounts: stats.ByteCounts{WireBytes: 100, DiskBytes: 70, Base64Bytes: 90}}
	for _, native := range []bool{false, true} {
		for _, tc := range []struct {
			name string
			step time.Duration // End advances by step each read (0: untraced)
		}{{"untraced", 0}, {"traced", time.Microsecond}, {"traced-every", exemplarGap}} {
			b.Run(map[bool]string{false: "classic", true: "native"}[native]+"/"+tc.name, func(b *testing.B) {
				_, measured := New(Options{Native: native}).Start(RunLabels{ID: "x"}, []stats.ClassInfo{{Name: "a"}}, 0)
				s := base
				if tc.step > 0 {
					s.Trace = [16]byte{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36}
					s.End = time.Now()
				}
				b.ReportAllocs()
				for b.Loop() {
					if tc.step > 0 {
						s.End = s.End.Add(tc.step)
					}
					measured.ObserveRead(s)
				}
			})
		}
	}
}

// TestObserverLabelsFromReady: the driver's Options.Observe labels a
// run's series with the command's part (run id, side) and what the run
// told once ready (workload, target redacted, server, shard), and returns
// observers that count.
func TestObserverLabelsFromReady(t *testing.T) {
	reg := New(Options{})
	observe := reg.Observer(RunLabels{ID: "r1", Side: "base"})
	_, measured := observe(stats.Ready{Workload: "w", Target: "http://u:secret@h:1/mcp", ServerName: "s", ServerVersion: "2",
		Shard: "1/2", Classes: []stats.ClassInfo{{Name: "a"}}, AskedRate: 5})
	measured.ObserveRead(stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: time.Millisecond})
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"run_id": "r1", "side": "base", "workload": "w", "server_name": "s", "server_version": "2", "shard": "1/2"}
	found := false
	for _, f := range fams {
		if f.GetName() != "readbench_reads_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			got := map[string]string{}
			for _, l := range m.GetLabel() {
				got[l.GetName()] = l.GetValue()
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("label %s=%q, want %q (%v)", k, got[k], v, got)
				}
			}
			if strings.Contains(got["target"], "secret") || got["target"] == "" {
				t.Errorf("target label %q", got["target"])
			}
			found = found || m.GetCounter().GetValue() == 1
		}
	}
	if !found {
		t.Error("the read was not counted")
	}
}
