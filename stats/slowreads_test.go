package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSlowReadsKept: of many reads, a class keeps exactly the slowest
// SlowestKept and the slowest BrokeKept of those that broke a bound,
// counting every one that did, never a read that was not sent; two
// recorders merged keep what one that saw every read keeps.
func TestSlowReadsKept(t *testing.T) {
	for _, n := range []int{3, SlowestKept, 5000} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		var all []ReadSample
		for i := range n {
			s := ReadSample{Class: 0, Sent: i%7 != 0, Latency: time.Duration(rng.IntN(1e9)), URI: "u", Intended: time.Unix(int64(i), 0)}
			s.Trace[0] = byte(i) | 1
			s.Broke = s.Latency > 900*time.Millisecond
			s.LowerBound = s.Broke && i%2 == 0
			all = append(all, s)
		}
		one := NewRecorder([]ClassInfo{{Name: "c"}})
		a, b := NewRecorder([]ClassInfo{{Name: "c"}}), NewRecorder([]ClassInfo{{Name: "c"}})
		for i, s := range all {
			one.Read(s)
			if i%2 == 0 {
				a.Read(s)
			} else {
				b.Read(s)
			}
		}
		got := one.Phase().Classes[0].Slow.Sorted()

		var sent, broke []time.Duration
		var seen int64
		for _, s := range all {
			if !s.Sent {
				continue
			}
			sent = append(sent, s.Latency)
			if s.Broke {
				broke = append(broke, s.Latency)
				seen++
			}
		}
		desc := func(d []time.Duration, k int) []time.Duration {
			slices.SortFunc(d, func(x, y time.Duration) int { return int(y - x) })
			return d[:min(k, len(d))]
		}
		latencies := func(rs []SlowRead) []time.Duration {
			out := make([]time.Duration, len(rs))
			for i, r := range rs {
				out[i] = time.Duration(r.Latency)
			}
			return out
		}
		if w := desc(sent, SlowestKept); !slices.Equal(latencies(got.Slowest), w) {
			t.Errorf("n=%d: slowest %v, want %v", n, latencies(got.Slowest), w)
		}
		if w := desc(broke, BrokeKept); !slices.Equal(latencies(got.Broke), w) || got.BrokeSeen != seen {
			t.Errorf("n=%d: broke %d kept of %d seen, want %d of %d", n, len(got.Broke), got.BrokeSeen, len(w), seen)
		}
		for _, r := range got.Slowest {
			if len(r.TraceID) != 32 || r.URI != "u" || r.Intended.IsZero() {
				t.Fatalf("n=%d: a kept read lost its name: %+v", n, r)
			}
		}
		merged := a.Phase()
		merged.Merge(b.Phase())
		m := merged.Classes[0].Slow.Sorted()
		if !slices.Equal(latencies(m.Slowest), latencies(got.Slowest)) || !slices.Equal(latencies(m.Broke), latencies(got.Broke)) || m.BrokeSeen != got.BrokeSeen {
			t.Errorf("n=%d: merged halves keep %v / %d, one recorder %v / %d", n, latencies(m.Slowest), m.BrokeSeen, latencies(got.Slowest), got.BrokeSeen)
		}
		// a result read back is Sorted, then merged again (merge of merges)
		again := got
		again.Merge(SlowReads{Slowest: []SlowRead{{Latency: Milliseconds(2 * time.Second)}}})
		if s := again.Sorted().Slowest; s[0].Latency != Milliseconds(2*time.Second) || len(s) != min(len(got.Slowest)+1, SlowestKept) {
			t.Errorf("n=%d: merged into a sorted list: %v", n, latencies(s))
		}
	}
}

// BenchmarkKeepSlowRead is the cost keeping adds to a read once the heap
// is full: one comparison for a read not among the slowest.
func BenchmarkKeepSlowRead(b *testing.B) {
	var k SlowReads
	s := ReadSample{Sent: true, URI: "u"}
	for i := range b.N {
		s.Latency = time.Duration(i % 1000)
		k.keep(&s)
	}
}

// TestSlowReadNamesWhatTheServerGot (issue 47, item 13): a kept read
// names its trace and its own span when it carried them to the server;
// none when its turn was not sampled; none, and marked unreached, when
// it never reached the server (its ids exist nowhere).
func TestSlowReadNamesWhatTheServerGot(t *testing.T) {
	trace := [16]byte{0x4b, 0xf9, 15: 0x36}
	span := [8]byte{0x00, 0xf0, 7: 0x07}
	for _, c := range []struct {
		name          string
		sample        ReadSample
		trace, spanID string
		unreached     bool
	}{
		{"traced", ReadSample{Trace: trace, Span: span}, "4bf90000000000000000000000000036", "00f0000000000007", false},
		{"not sampled", ReadSample{}, "", "", false},
		{"never reached", ReadSample{Trace: trace, Span: span, Unreached: true, Outcome: Transport}, "", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.sample
			s.Sent, s.Latency, s.URI = true, time.Second, "u"
			rec := NewRecorder([]ClassInfo{{Name: "c"}})
			rec.Read(s)
			got := rec.Phase().Classes[0].Slow.Sorted().Slowest
			if len(got) != 1 || got[0].TraceID != c.trace || got[0].SpanID != c.spanID || got[0].Unreached != c.unreached || got[0].Traced() != (c.trace != "") {
				t.Errorf("kept %+v, want trace %q span %q unreached %v", got, c.trace, c.spanID, c.unreached)
			}
		})
	}
}
