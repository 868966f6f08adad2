package servercost

import (
	"runtime"
	"testing"
)

func TestParseVmHWM(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t1 kB\n", 2048 << 10, true},
		{"VmRSS:\t1 kB\n", 0, false},
		{"VmHWM:\t12 MB\n", 0, false},
		{"VmHWM:\t-1 kB\n", 0, false},
	} {
		got, ok := parseVmHWM([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("parseVmHWM(%q) = %d, %t; want %d, %t", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestSelfPeakRSSGrows: holding 64 MiB raises the peak by about that much
// (VmHWM is Linux's: this file builds only there, so the test never skips).
func TestSelfPeakRSSGrows(t *testing.T) {
	before, ok := SelfPeakRSS()
	if !ok {
		t.Fatal("no VmHWM in /proc/self/status")
	}
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	after, _ := SelfPeakRSS()
	runtime.KeepAlive(b)
	if after < before+48<<20 {
		t.Errorf("peak %d after touching 64 MiB, %d before", after, before)
	}
}
