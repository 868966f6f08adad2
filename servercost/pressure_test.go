package servercost

import (
	"testing"
	"time"
)

func TestParseCPUStall(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"some avg10=67.49 avg60=67.08 avg300=48.34 total=7509419415\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", 7509419415 * time.Microsecond, true},
		{"some total=12\n", 12 * time.Microsecond, true},
		{"full avg10=0.00 total=5\nsome avg10=1.00 total=7", 7 * time.Microsecond, true},
		{"", 0, false},
		{"some avg10=1.00\n", 0, false},
		{"some total=-1\n", 0, false},
		{"some total=99999999999999999999\n", 0, false},
	} {
		got, err := parseCPUStall([]byte(c.in))
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%q: %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestSummarizePressure: the share of the measured phase some task waited
// for a CPU, from the stall totals around its bounds; unknown when a
// sample could not read it.
func TestSummarizePressure(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ss := []Sample{{At: t0, Stall: 0}, {At: t0.Add(time.Second), Stall: 250 * time.Millisecond}, {At: t0.Add(2 * time.Second), Stall: 1250 * time.Millisecond}}
	s := Trace{Available: true, PIDs: []int{1}, Samples: ss}.Summarize(t0, t0.Add(2*time.Second), 10)
	if !s.PressureKnown || s.CPUPressure != 0.625 {
		t.Errorf("pressure %v known %v, want 0.625", s.CPUPressure, s.PressureKnown)
	}
	ss[1].Stall = -1
	if s := (Trace{Available: true, PIDs: []int{1}, Samples: ss}).Summarize(t0, t0.Add(2*time.Second), 10); s.PressureKnown {
		t.Errorf("a sample without the stall total: pressure %v reported known", s.CPUPressure)
	}
}

func FuzzParseCPUStall(f *testing.F) {
	f.Add([]byte("some avg10=67.49 avg60=67.08 avg300=48.34 total=7509419415\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if d, err := parseCPUStall(b); err == nil && d < 0 {
			t.Fatalf("negative stall %v from %q", d, b)
		}
	})
}
