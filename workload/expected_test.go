package workload

import (
	"testing"
	"time"

	"github.com/readbench/readbench/units"
)

func TestLoadExpected(t *testing.T) {
	rate := func(perS float64) units.Rate { return units.Rate{PerSecond: perS} }
	for _, tc := range []struct {
		name string
		load Load
		want time.Duration
	}{
		{"warmup and duration", Load{Warmup: time.Second, Duration: 6 * time.Second}, 7 * time.Second},
		{"stages", Load{Stages: []Stage{{For: 3 * time.Second}, {For: 4 * time.Second}}}, 7 * time.Second},
		{"a turn count at a rate", Load{Turns: 100, Rate: rate(20)}, 5 * time.Second},
		{"a turn count, closed", Load{Model: ModelClosed, Turns: 100, Concurrency: 4}, 0},
	} {
		if got := tc.load.Expected(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
