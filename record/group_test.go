package record

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// rd is a read for the grouping tests: arrival and end in ms (end < 0:
// in flight), and a request id (0: none, or not a number).
type rd struct {
	at, end float64
	id      int
}

func arrivals(reads []rd) []arrival {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms float64) time.Time { return t0.Add(time.Duration(ms * float64(time.Millisecond))) }
	as := make([]arrival, len(reads))
	for i, r := range reads {
		as[i] = arrival{at: at(r.at), end: at(r.end), inFlight: r.end < 0, id: float64(r.id), hasID: r.id > 0}
	}
	return as
}

// gapsOf are the gaps between consecutive reads that did not overlap, as
// turns.begin keeps them.
func gapsOf(reads []rd) []time.Duration {
	var g []time.Duration
	for i := 1; i < len(reads); i++ {
		if p := reads[i-1]; p.end >= 0 && p.end <= reads[i].at {
			g = append(g, time.Duration((reads[i].at-p.at)*float64(time.Millisecond)))
		}
	}
	return g
}

// TestGroupTurns: a session's reads grouped into turns by the order of
// their request ids, their being in flight together, and a window sized
// on the gaps observed (issue 47, item 8): a busy host's turns, whose reads
// reach the proxy 60 to 95 ms apart each answered before the next came,
// stay whole, where the fixed 50 ms window of a turn's first read split
// them; steady load is still not chained into one turn.
func TestGroupTurns(t *testing.T) {
	busy := []rd{ // three turns of three reads, 600 ms apart
		{0, 5, 1}, {60, 65, 2}, {95, 100, 3},
		{700, 705, 4}, {760, 765, 5}, {795, 800, 6},
		{1400, 1405, 7}, {1460, 1465, 8}, {1495, 1500, 9},
	}
	var steady []rd // a read every 20 ms, each 30 ms: overlapping one after the other
	for i := range 30 {
		steady = append(steady, rd{float64(20 * i), float64(20*i + 30), i + 1})
	}
	for _, tc := range []struct {
		name  string
		reads []rd
		gaps  []rd // the recording's gaps (nil: those of reads)
		want  string
	}{
		{"in flight together", []rd{{0, 40, 1}, {20, 60, 2}, {30, 50, 3}}, nil, "[0 1 2]overlap"},
		{"a fast server answers the first before the last comes (window of the first)",
			[]rd{{0, 30, 0}, {20, 100, 0}, {70, 110, 0}, {150, 160, 0}, {190, 200, 0}, {300, 310, 0}}, []rd{},
			"[0 1]overlap [2]single [3 4]window [5]single"},
		{"a busy host: the window follows the gaps", busy, nil, "[0 1 2]window [3 4 5]window [6 7 8]window"},
		{"a busy host, the fixed window of before", busy, []rd{}, "[0]single [1 2]window [3]single [4 5]window [6]single [7 8]window"},
		{"sent before a read of the turn: the same turn", []rd{{0, 5, 3}, {80, 85, 1}, {120, 125, 2}, {700, 705, 4}}, []rd{},
			"[0 1 2]order [3]single"},
		{"steady overlapping load is not one turn", steady, nil,
			"[0 1 2]window [3 4 5]window [6 7 8]window [9 10 11]window [12 13 14]window [15 16 17]window [18 19 20]window [21 22 23]window [24 25 26]window [27 28 29]window"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gaps := tc.gaps
			if gaps == nil {
				gaps = tc.reads
			}
			w, lo := windowOf(gapsOf(gaps), DefaultBurst)
			got := ""
			for k, g := range group(arrivals(tc.reads), w, lo, 0, 0) {
				if k > 0 {
					got += " "
				}
				got += fmt.Sprint(g.reads) + g.by
				if g.confidence < 0 || g.confidence > 1 {
					t.Errorf("turn %v: confidence %v", g.reads, g.confidence)
				}
			}
			if got != tc.want {
				t.Errorf("window %v: turns %s, want %s", w, got, tc.want)
			}
		})
	}
}

// TestWindowOf: the window is the geometric middle of the widest break
// in the gaps observed, never below the floor nor above a second; without
// a break (a ratio of 2 or more), the floor.
func TestWindowOf(t *testing.T) {
	ms := func(v ...float64) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x*float64(time.Millisecond)))
		}
		return d
	}
	for _, tc := range []struct {
		name   string
		gaps   []time.Duration
		w, lo  time.Duration
		within bool // w only checked to be between lo and the smallest gap above it
	}{
		{"none", nil, 50 * time.Millisecond, 25 * time.Millisecond, false},
		{"intra 35-60, inter 600", ms(35, 60, 600, 35, 60, 605), 0, 60 * time.Millisecond, true},
		{"all small: the floor", ms(1, 2, 3, 20, 30), 50 * time.Millisecond, 30 * time.Millisecond, false},
		{"tiny gaps do not make a break below the floor", ms(0.1, 0.2, 60, 90, 400, 420), 0, 90 * time.Millisecond, true},
		{"think times of seconds: their middle with the floor", ms(20, 30, 5000, 7000), 500 * time.Millisecond, 50 * time.Millisecond, false},
		{"at most a second", ms(400, 480, 9000), time.Second, 480 * time.Millisecond, false},
		{"no break: the floor", ms(100, 150, 200, 250, 300), 50 * time.Millisecond, 25 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, lo := windowOf(tc.gaps, DefaultBurst)
			if lo != tc.lo {
				t.Errorf("lo %v, want %v", lo, tc.lo)
			}
			if tc.within {
				above := slices.IndexFunc(slices.Sorted(slices.Values(tc.gaps)), func(g time.Duration) bool { return g > lo })
				if next := slices.Sorted(slices.Values(tc.gaps))[above]; w <= lo || w >= next {
					t.Errorf("window %v, want between %v and %v", w, lo, next)
				}
			} else if w != tc.w {
				t.Errorf("window %v, want %v", w, tc.w)
			}
		})
	}
}

// TestGroupConfidence: 1 − the largest gap the turn bridges (or the
// recording's) over the smallest gap around it.
func TestGroupConfidence(t *testing.T) {
	for _, tc := range []struct {
		inner, lo, before, after time.Duration
		want                     float64
	}{
		{60 * time.Millisecond, 50 * time.Millisecond, 600 * time.Millisecond, 0, 0.9},
		{0, 50 * time.Millisecond, 0, 0, 1},
		{0, 50 * time.Millisecond, 500 * time.Millisecond, 100 * time.Millisecond, 0.5},
		{200 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 0, 0},
	} {
		if got := confidence(tc.inner, tc.lo, tc.before, tc.after); got != tc.want {
			t.Errorf("confidence(%v, %v, %v, %v) = %v, want %v", tc.inner, tc.lo, tc.before, tc.after, got, tc.want)
		}
	}
}

// TestTurnsSettleQuiet: a session quiet for settleQuiet has its last turn
// written, the quiet counted as the gap that ends it, so that the first
// turn of a busy host (reads 60 and 98 ms apart) is whole before any
// other was seen.
func TestTurnsSettleQuiet(t *testing.T) {
	var got []Read
	tr := turns{write: func(r Read) { got = append(got, r) }}
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	for i, ms := range []int{0, 60, 98} {
		p := &pending{sid: "x", arrived: at(ms), idNum: float64(i + 1), hasID: true, uri: fmt.Sprint(i)}
		tr.begin("x", p, at(ms))
		tr.end(p, Read{URI: p.uri, Session: p.session}, at(ms+3))
	}
	tr.settleQuiet(at(1000)) // not yet quiet long enough
	if len(got) != 0 {
		t.Fatalf("written before the session was quiet: %+v", got)
	}
	tr.settleQuiet(at(98 + 3 + int(settleQuiet/time.Millisecond)))
	if len(got) != 3 || got[0].Turn != 1 || got[2].Turn != 1 || got[0].GroupedBy != GroupedWindow || *got[0].Confidence < 0.9 {
		t.Errorf("written %+v", got)
	}
}
