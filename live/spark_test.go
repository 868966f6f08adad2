package live

import (
	"testing"
	"time"
)

func TestSparkline(t *testing.T) {
	ms := func(vs ...int) []time.Duration {
		out := make([]time.Duration, len(vs))
		for i, v := range vs {
			out[i] = time.Duration(v) * time.Millisecond
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		vs    []time.Duration
		width int
		want  string
	}{
		{"empty", nil, 10, ""},
		{"no width", ms(1, 2), 0, ""},
		{"lowest to highest", ms(10, 20, 30, 40, 50, 60, 70, 80), 8, "▁▂▃▄▅▆▇█"},
		{"scaled from the smallest, not from zero", ms(100, 107), 8, "▁█"},
		{"rounded to the nearer level", ms(10, 14, 16, 80), 8, "▁▁▂█"}, // 0.4 and 0.6 of a level
		{"all equal: the lowest level", ms(40, 40, 40), 8, "▁▁▁"},
		{"a second without reads is blank and out of the scale", ms(10, 0, 80), 8, "▁ █"},
		{"more values than cells: each cell the largest of its group", ms(10, 80, 10, 10, 10, 45), 3, "█▁▅"},
		{"uneven groups", ms(10, 10, 10, 10, 80), 2, "▁█"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sparkline(tc.vs, tc.width); got != tc.want {
				t.Errorf("sparkline(%v, %d) = %q, want %q", tc.vs, tc.width, got, tc.want)
			}
		})
	}
}

func TestSqueezeKeepsTheMaximum(t *testing.T) {
	vs := make([]time.Duration, 100)
	vs[57] = time.Second
	got := squeeze(vs, 7)
	if len(got) != 7 {
		t.Fatalf("%d cells, want 7", len(got))
	}
	n := 0
	for _, v := range got {
		if v == time.Second {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the one tall value is in %d cells, want 1: %v", n, got)
	}
}
