package workload

import (
	"strings"
	"testing"
	"time"
)

func TestParseSegment(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Segment
		err  string
	}{
		{"1/1", Segment{1, 1}, ""},
		{"2/4", Segment{2, 4}, ""},
		{" 3 / 3 ", Segment{3, 3}, ""},
		{"index:0/4", Segment{1, 4}, ""},
		{"index:3/4", Segment{4, 4}, ""},
		{"index:4/4", Segment{}, "k must be 1 to 4"},
		{"index:-1/4", Segment{}, "k must be 1 to 4"},
		{"0/4", Segment{}, "k must be 1 to 4"},
		{"5/4", Segment{}, "k must be 1 to 4"},
		{"1/0", Segment{}, "n must be"},
		{"1/20000", Segment{}, "n must be"},
		{"2", Segment{}, "want k/n"},
		{"a/b", Segment{}, "want k/n"},
		{"", Segment{}, "want k/n"},
	} {
		got, err := ParseSegment(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
		}
	}
}

// TestSegmentsPartition: for every n, the shards own each turn index
// exactly once, Turn enumerates exactly the owned indices, and the shares
// of any count sum to it.
func TestSegmentsPartition(t *testing.T) {
	for n := 1; n <= 7; n++ {
		owners := make([]int, 100)
		for k := 1; k <= n; k++ {
			s := Segment{K: k, N: n}
			for i := range owners {
				if s.Owns(uint64(i)) {
					owners[i]++
				}
			}
			for j := range uint64(10) {
				if i := s.Turn(j); !s.Owns(i) || s.Local(i) != j {
					t.Errorf("%s: Turn(%d) = %d, owned %v, local %d", s, j, i, s.Owns(i), s.Local(i))
				}
			}
		}
		for i, o := range owners {
			if o != 1 {
				t.Fatalf("n=%d: turn %d owned by %d shards", n, i, o)
			}
		}
		for _, total := range []int{0, 1, 2, 3, 7, 10, 1000, 999999} {
			sum, lo, hi := 0, total, 0
			for k := 1; k <= n; k++ {
				sh := Segment{K: k, N: n}.Share(total)
				sum += sh
				lo, hi = min(lo, sh), max(hi, sh)
			}
			if sum != total || hi-lo > 1 {
				t.Errorf("n=%d total=%d: shares sum to %d, spread %d..%d", n, total, sum, lo, hi)
			}
		}
	}
}

func TestShard(t *testing.T) {
	w := &Workload{Sessions: 5, Load: Load{Model: ModelClosed, Concurrency: 7, Turns: 100, MaxInFlight: 1000}}
	var sessions, conc, turns, mif int
	for k := 1; k <= 3; k++ {
		s, err := w.Segment(Segment{K: k, N: 3})
		if err != nil {
			t.Fatal(err)
		}
		sessions += s.Sessions
		conc += s.Load.Concurrency
		turns += s.Load.Turns
		mif += s.Load.MaxInFlight
	}
	if sessions != 5 || conc != 7 || turns != 100 || mif != 1000 {
		t.Errorf("shares sum to sessions %d, concurrency %d, turns %d, max_in_flight %d", sessions, conc, turns, mif)
	}
	if w.Sessions != 5 {
		t.Error("Shard changed the workload it was given")
	}
	open := &Workload{Sessions: 4, Load: Load{Model: ModelOpen, Turns: 10}}
	if s, _ := open.Segment(Segment{K: 2, N: 4}); s.Load.Turns != 10 {
		t.Errorf("open model: turns %d, want the whole run's 10 (every index counts)", s.Load.Turns)
	}
	// Every shard refuses a split that leaves one of them nothing, its own
	// share being one or zero: shard 2/4 of 2 sessions (its share is 1)
	// must not run and wait for shards 1/4 and 3/4, which cannot.
	for _, c := range []struct {
		sessions int
		seg      Segment
	}{{5, Segment{K: 1, N: 6}}, {5, Segment{K: 6, N: 6}}, {2, Segment{K: 2, N: 4}}, {2, Segment{K: 1, N: 4}}, {2, Segment{K: 3, N: 3}}} {
		short := &Workload{Sessions: c.sessions, Load: Load{Model: ModelOpen}}
		_, err := short.Segment(c.seg)
		if err == nil || !strings.Contains(err.Error(), "sessions") || !strings.Contains(err.Error(), "every shard") {
			t.Errorf("%d sessions, segment %s: %v, want a refusal naming sessions", c.sessions, c.seg, err)
		}
	}
	var err error
	w.Sessions = 8
	_, err = w.Segment(Segment{K: 1, N: 8})
	if err == nil || !strings.Contains(err.Error(), "load.concurrency") {
		t.Errorf("concurrency 7 in 8 shards: %v", err)
	}
}

// TestShardListeners: the shards of a run with listeners open shares of
// them that add up to the whole, without touching the workload given;
// a count that cannot give every shard one is refused at listen.listeners.
func TestShardListeners(t *testing.T) {
	w := &Workload{Sessions: 3, Load: Load{Model: ModelOpen}, Listen: &Listen{Listeners: 10, Streams: 2}}
	sum := 0
	for k := 1; k <= 3; k++ {
		s, err := w.Segment(Segment{K: k, N: 3})
		if err != nil {
			t.Fatal(err)
		}
		sum += s.Listen.Listeners
		if s.Listen.Streams != 2 {
			t.Errorf("shard %d: %d streams a listener, want 2", k, s.Listen.Streams)
		}
	}
	if sum != 10 || w.Listen.Listeners != 10 {
		t.Errorf("shares sum to %d listeners (the workload now says %d), want 10", sum, w.Listen.Listeners)
	}
	few := &Workload{Sessions: 4, Load: Load{Model: ModelOpen}, Listen: &Listen{Listeners: 3, Streams: 1}}
	if _, err := few.Segment(Segment{K: 1, N: 4}); err == nil || !strings.Contains(err.Error(), "listen.listeners") {
		t.Errorf("3 listeners in 4 shards: %v, want a refusal at listen.listeners", err)
	}
}

// FuzzParseSegment: any --segment text parses to a valid segment or an
// error, never a panic.
func FuzzParseSegment(f *testing.F) {
	for _, s := range []string{"1/1", "2/4", "0/0", "-1/3", "9999999999999999999/2", "1/", "index:9999/10000", "index:x/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seg, err := ParseSegment(s)
		if err == nil && (seg.K < 1 || seg.K > seg.N || seg.N > MaxSegments) {
			t.Fatalf("%q parsed to %+v", s, seg)
		}
	})
}

func TestParseStartAt(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
		err  string
	}{
		{"+30s", now.Add(30 * time.Second), ""},
		{"2026-12-01T08:05:00Z", now.Add(5 * time.Minute), ""},
		{"2026-12-01T09:05:00.5+01:00", now.Add(5*time.Minute + 500*time.Millisecond), ""},
		{"2026-12-01T08:00:00Z", time.Time{}, "already passed"},
		{"2026-11-30T08:00:00Z", time.Time{}, "already passed"},
		{"+0s", time.Time{}, "want +DURATION"},
		{"+-5s", time.Time{}, "want +DURATION"},
		{"2027-12-01T08:00:00Z", time.Time{}, "more than"},
		{"tomorrow", time.Time{}, "RFC 3339"},
	} {
		got, err := ParseStartAt(c.in, now)
		switch {
		case c.err == "" && (err != nil || !got.Equal(c.want)):
			t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
		}
	}
}

// FuzzParseStartAt: any --start-at text is a time after now within the
// bound, or an error; never a panic.
func FuzzParseStartAt(f *testing.F) {
	for _, s := range []string{"+30s", "2026-12-01T08:05:00Z", "+9999999h", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"} {
		f.Add(s)
	}
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		at, err := ParseStartAt(s, now)
		if err == nil && (!at.After(now) || at.Sub(now) > MaxStartWait) {
			t.Fatalf("%q: %v accepted", s, at)
		}
	})
}
