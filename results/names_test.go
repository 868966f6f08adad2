package results

import (
	"testing"
	"time"
)

func TestShardName(t *testing.T) {
	started := time.Date(2026, 11, 30, 2, 28, 47, 0, time.UTC)
	for _, tc := range []struct {
		name string
		seg  Segment
		want string
	}{
		{"the zero segment is the whole run: no mark", Segment{}, "20261130T022847Z-simserver-0.1.0.json"},
		{"1 of 1 is the whole run too", Segment{K: 1, N: 1}, "20261130T022847Z-simserver-0.1.0.json"},
		{"a shard is marked with k and n", Segment{K: 2, N: 3}, "20261130T022847Z-simserver-0.1.0-segment-2of3.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ShardName(started, "simserver", "0.1.0", tc.seg); got != tc.want {
				t.Errorf("ShardName = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMergedName(t *testing.T) {
	started := time.Date(2026, 11, 30, 2, 28, 47, 0, time.FixedZone("CET", 3600))
	// The start is written in UTC, as DefaultName writes it.
	if got, want := MergedName(started, "sim server", ""), "20261130T012847Z-sim-server-unknown-merged.json"; got != want {
		t.Errorf("MergedName = %q, want %q", got, want)
	}
}
