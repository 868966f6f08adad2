package live

import (
	"testing"
	"time"
)

// spots are measured seconds of p99s in ms (0: a second without reads);
// a negative value is a warmup second.
func spots(vs ...int) []spot {
	out := make([]spot, len(vs))
	for i, v := range vs {
		out[i] = spot{p99: time.Duration(max(v, 0)) * time.Millisecond, warm: v < 0}
	}
	return out
}

func TestSparkline(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		vs    []spot
		width int
		top   time.Duration
		want  string
	}{
		{"empty", nil, 10, 80 * ms, ""},
		{"no width", spots(1, 2), 0, 80 * ms, ""},
		{"each eighth of the scale a level", spots(10, 20, 30, 40, 50, 60, 70, 80), 8, 80 * ms, "▁▂▃▄▅▆▇█"},
		{"scaled from zero, not from the smallest", spots(100, 107), 8, 120 * ms, "▇█"},
		{"into an eighth is that eighth's level", spots(1, 11, 79), 8, 80 * ms, "▁▂█"},
		{"at or over the ceiling: the top level", spots(80, 95), 8, 80 * ms, "██"},
		{"a second without reads is blank", spots(10, 0, 80), 8, 80 * ms, "▁ █"},
		{"a warmup second is drawn apart", spots(-1, 40, 80), 8, 80 * ms, "░▄█"},
		{"more values than cells: each cell the largest of its group", spots(10, 80, 10, 10, 10, 45), 3, 80 * ms, "█▁▅"},
		{"a group of warmup and measured seconds is the measured", spots(-1, -1, -1, 40), 2, 80 * ms, "░▄"},
		{"uneven groups", spots(10, 10, 10, 10, 80), 2, 80 * ms, "▁█"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sparkline(tc.vs, tc.width, tc.top); got != tc.want {
				t.Errorf("sparkline(%v, %d, %v) = %q, want %q", tc.vs, tc.width, tc.top, got, tc.want)
			}
		})
	}
}

func TestSqueezeKeepsTheMaximum(t *testing.T) {
	vs := make([]spot, 100)
	vs[57].p99 = time.Second
	got := squeeze(vs, 7)
	if len(got) != 7 {
		t.Fatalf("%d cells, want 7", len(got))
	}
	n := 0
	for _, v := range got {
		if v.p99 == time.Second {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the one tall value is in %d cells, want 1: %v", n, got)
	}
}

func TestNiceCeil(t *testing.T) {
	for _, tc := range []struct{ in, want time.Duration }{
		{0, 0}, {39 * time.Millisecond, 40 * time.Millisecond}, {40 * time.Millisecond, 40 * time.Millisecond},
		{41 * time.Millisecond, 50 * time.Millisecond}, {805 * time.Millisecond, time.Second},
	} {
		if got := niceCeil(tc.in); got != tc.want {
			t.Errorf("niceCeil(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want float64 }{{0, 10}, {9, 10}, {41, 50}, {160, 200}, {1234, 1500}} {
		if got := niceCeilRate(tc.in); got != tc.want {
			t.Errorf("niceCeilRate(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
