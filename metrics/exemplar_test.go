package metrics

import (
	"encoding/hex"
	"reflect"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/readbench/readbench/stats"
)

// trace is a trace id whose bytes are all b.
func trace(b byte) [16]byte {
	var t [16]byte
	for i := range t {
		t[i] = b
	}
	return t
}

// hexOf is trace(b) as the exemplar label writes it.
func hexOf(b byte) string {
	t := trace(b)
	return hex.EncodeToString(t[:])
}

// bucketExemplars maps, for the measured phase of histogram name, each
// bucket's upper bound (as le) to its exemplar's trace id.
func bucketExemplars(t *testing.T, fams []*dto.MetricFamily, name string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if !hasLabel(m.GetLabel(), "phase", PhaseMeasured) {
				continue
			}
			for _, b := range m.GetHistogram().GetBucket() {
				e := b.GetExemplar()
				if e == nil {
					continue
				}
				if len(e.GetLabel()) != 1 || e.GetLabel()[0].GetName() != ExemplarLabel {
					t.Errorf("%s le=%v: exemplar labels %v", name, b.GetUpperBound(), e.GetLabel())
				}
				out[formatLE(b.GetUpperBound())] = e.GetLabel()[0].GetValue()
			}
		}
	}
	return out
}

func hasLabel(ls []*dto.LabelPair, name, value string) bool {
	for _, l := range ls {
		if l.GetName() == name {
			return l.GetValue() == value
		}
	}
	return false
}

// A traced read gives its latency and service buckets its trace id; a
// bucket keeps it for exemplarGap against later traced reads; untraced
// reads, the lag and the turns carry none.
func TestObserveReadExemplars(t *testing.T) {
	t0 := time.Now()
	answered := func(tr byte, lat, svc time.Duration, after time.Duration) stats.ReadSample {
		return stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Sent: true, Latency: lat, Service: svc,
			Lag: 30 * time.Microsecond, Trace: trace(tr), End: t0.Add(after)}
	}
	for _, tc := range []struct {
		name          string
		reads         []stats.ReadSample
		read, service map[string]string
	}{
		{"untraced", []stats.ReadSample{answered(0, 3*time.Millisecond, 2*time.Millisecond, 0)}, map[string]string{}, map[string]string{}},
		{"traced", []stats.ReadSample{answered(0xa1, 3*time.Millisecond, 2*time.Millisecond, 0)},
			map[string]string{"0.005": hexOf(0xa1)}, map[string]string{"0.002": hexOf(0xa1)}},
		{"within the gap the first stays", []stats.ReadSample{
			answered(0xa1, 3*time.Millisecond, 2*time.Millisecond, 0),
			answered(0xb2, 4*time.Millisecond, 2*time.Millisecond, exemplarGap/2),
		}, map[string]string{"0.005": hexOf(0xa1)}, map[string]string{"0.002": hexOf(0xa1)}},
		{"after the gap a newer one", []stats.ReadSample{
			answered(0xa1, 3*time.Millisecond, 2*time.Millisecond, 0),
			answered(0xb2, 4*time.Millisecond, 2*time.Millisecond, exemplarGap+time.Millisecond),
		}, map[string]string{"0.005": hexOf(0xb2)}, map[string]string{"0.002": hexOf(0xb2)}},
		{"each bucket its own gap", []stats.ReadSample{
			answered(0xa1, 3*time.Millisecond, 2*time.Millisecond, 0),
			answered(0xb2, 300*time.Millisecond, 250*time.Millisecond, time.Millisecond),
		}, map[string]string{"0.005": hexOf(0xa1), "0.5": hexOf(0xb2)}, map[string]string{"0.002": hexOf(0xa1), "0.5": hexOf(0xb2)}},
		{"past the last bucket", []stats.ReadSample{answered(0xc3, 2*time.Minute, 90*time.Second, 0)},
			map[string]string{"+Inf": hexOf(0xc3)}, map[string]string{"+Inf": hexOf(0xc3)}},
		{"a cut read has no service time", []stats.ReadSample{{Class: 0, Outcome: stats.Cancelled, LowerBound: true, Sent: true,
			Latency: time.Second, Trace: trace(0xd4)}},
			map[string]string{"1": hexOf(0xd4)}, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := New(Options{})
			_, measured := reg.Start(RunLabels{ID: "x"}, []stats.ClassInfo{{Name: "a"}}, 0)
			for _, s := range tc.reads {
				measured.ObserveRead(s)
			}
			measured.ObserveTurn(stats.TurnSample{End: stats.TurnComplete, Latency: time.Millisecond})
			fams, err := reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			if got := bucketExemplars(t, fams, "readbench_read_latency_seconds"); !reflect.DeepEqual(got, tc.read) {
				t.Errorf("read latency exemplars %v, want %v", got, tc.read)
			}
			if got := bucketExemplars(t, fams, "readbench_read_service_seconds"); !reflect.DeepEqual(got, tc.service) {
				t.Errorf("service exemplars %v, want %v", got, tc.service)
			}
			for _, name := range []string{"readbench_schedule_lag_seconds", "readbench_turn_latency_seconds"} {
				if got := bucketExemplars(t, fams, name); len(got) > 0 {
					t.Errorf("%s exemplars %v, want none", name, got)
				}
			}
		})
	}
}

// Remote write carries each bucket's exemplar on that bucket's series,
// at the moment it was observed, and the native histogram's on the
// native series; the +Inf bucket client_golang lists when it holds an
// exemplar is sent once, not beside the one made from the count.
func TestToWriteExemplars(t *testing.T) {
	for _, native := range []bool{false, true} {
		reg := New(Options{Buckets: []float64{0.01, 0.1}, Native: native})
		_, measured := reg.Start(RunLabels{ID: "x"}, []stats.ClassInfo{{Name: "a"}}, 0)
		measured.ObserveRead(stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Latency: 5 * time.Millisecond, Trace: trace(0xa1)})
		measured.ObserveRead(stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Latency: time.Second, Trace: trace(0xb2)})
		measured.ObserveRead(stats.ReadSample{Class: 0, Outcome: stats.OK, Answered: true, Latency: 50 * time.Millisecond})
		fams, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		before := time.Now().Add(-time.Minute).UnixMilli()
		got := map[string][]string{} // series (name+le) → its exemplars' trace ids
		seen := map[string]int{}
		for _, ts := range toWrite(fams, 1000, native).Timeseries {
			var name, le, phase string
			for _, l := range ts.Labels {
				switch l.Name {
				case "__name__":
					name = l.Value
				case "le":
					le = l.Value
				case "phase":
					phase = l.Value
				}
			}
			if phase != PhaseMeasured || (name != "readbench_read_latency_seconds_bucket" && name != "readbench_read_latency_seconds") {
				continue
			}
			seen[name+le]++
			for _, e := range ts.Exemplars {
				if len(e.Labels) != 1 || e.Labels[0].Name != ExemplarLabel || e.Timestamp < before {
					t.Errorf("native=%v %s%s: exemplar %+v", native, name, le, e)
				}
				got[name+le] = append(got[name+le], e.Labels[0].Value)
			}
		}
		want := map[string][]string{
			"readbench_read_latency_seconds_bucket0.01": {hexOf(0xa1)},
			"readbench_read_latency_seconds_bucket+Inf": {hexOf(0xb2)},
		}
		if native {
			want["readbench_read_latency_seconds"] = []string{hexOf(0xa1), hexOf(0xb2)}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("native=%v: exemplars %v, want %v", native, got, want)
		}
		if n := seen["readbench_read_latency_seconds_bucket+Inf"]; n != 1 {
			t.Errorf("native=%v: %d +Inf series", native, n)
		}
	}
}
