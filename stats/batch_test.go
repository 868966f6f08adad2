package stats

import (
	"fmt"
	"testing"
	"time"
)

// TestRecorderBatchIsDirect: a Recorder holds the values of its last
// reads and turns in a batch (what makes recording a read cheap), and its
// histograms say and encode exactly what recording each value at once
// makes: read mid-batch (ReadP99, Live), at a batch's end, and in the
// Phase, and each second of the timeline (stragglers too), for reads of every kind (answered, cut, ok or not, first on
// their session, with and without a first byte, dropped) in two classes,
// and turns of one and two reads.
func TestRecorderBatchIsDirect(t *testing.T) {
	classes := []ClassInfo{{Name: "a"}, {Name: "b"}}
	r := NewRecorder(classes)
	want := NewRun(classes) // each value recorded at once, as Recorder.Read did
	start := time.Now()
	r.StartTimeline(start)
	var wantSecs []*Histogram
	n := 3*batchLen + 17
	for i := range n {
		s := readSample(start, 3*i, time.Duration(50+i*i%5000)*time.Microsecond) // 3 ms apart: seconds close
		if i%500 == 499 {
			s.End = start.Add(10 * time.Millisecond) // a straggler reopens second 0
		}
		s.Class = i % 2
		s.Answered = i%5 != 0
		s.LowerBound = !s.Answered && i%10 == 0
		s.Sent = i%7 != 0
		if i%3 == 0 {
			s.Outcome, s.TTFB = Protocol, 0
		}
		s.FirstOnSession = i%11 == 0
		if i%4 == 0 {
			s.FirstUsable = s.Latency / 3
		}
		r.Read(s)
		c := want.Classes[s.Class]
		if s.Answered || s.LowerBound {
			want.Read.Record(s.Latency)
			c.Latency.Record(s.Latency)
			sec := int(s.End.Sub(start) / time.Second)
			for len(wantSecs) <= sec {
				wantSecs = append(wantSecs, NewHistogram())
			}
			wantSecs[sec].Record(s.Latency)
			if s.FirstOnSession {
				want.FirstRead.Record(s.Latency)
			}
		}
		if s.Answered {
			if s.Outcome == OK {
				want.ReadOK.Record(s.Latency)
				want.ServiceOK.Record(s.Service)
			}
			want.Service.Record(s.Service)
			if s.TTFB > 0 {
				want.TTFB.Record(s.TTFB)
			}
		}
		if s.Sent || s.Lag > 0 { // sent, or dropped late
			want.Lag.Record(s.Lag)
		}
		if s.FirstUsable > 0 {
			c.FirstUsable.Record(s.FirstUsable)
		}
		turn := TurnSample{Latency: s.Latency + time.Duration(i)*time.Microsecond, Reads: i % 3}
		r.Turn(turn)
		want.Turn.Record(turn.Latency)
		if turn.Reads > 0 {
			if want.TurnBySize[turn.Reads] == nil {
				want.TurnBySize[turn.Reads] = NewHistogram()
			}
			want.TurnBySize[turn.Reads].Record(turn.Latency)
		}
		switch i {
		case 0, batchLen - 1, batchLen + 3, 2 * batchLen:
			if got, w := r.ReadP99(), want.Read.Quantile(99); got != w {
				t.Fatalf("read %d: ReadP99 %v, want %v", i, got, w)
			}
			if got, w := r.Live().Lag, want.Lag.Percentiles(); got != w {
				t.Fatalf("read %d: live lag %+v, want %+v", i, got, w)
			}
		}
	}
	if len(r.batch.reads) == 0 || len(r.batch.turns) == 0 {
		t.Fatalf("%d reads and %d turns held: the Recorder adds each value at once", len(r.batch.reads), len(r.batch.turns))
	}
	got := r.Phase()
	same := func(name string, g, w *Histogram) {
		t.Helper()
		ge, err := g.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if we, _ := w.Encode(); ge != we || g.Count() != w.Count() {
			t.Errorf("%s: %d values, encoding differs: %v; want %d", name, g.Count(), ge != we, w.Count())
		}
	}
	for name, h := range map[string][2]*Histogram{
		"read": {got.Read, want.Read}, "ok": {got.ReadOK, want.ReadOK}, "service": {got.Service, want.Service}, "service ok": {got.ServiceOK, want.ServiceOK},
		"ttfb": {got.TTFB, want.TTFB}, "lag": {got.Lag, want.Lag}, "first_read": {got.FirstRead, want.FirstRead},
		"turn": {got.Turn, want.Turn},
		"a":    {got.Classes[0].Latency, want.Classes[0].Latency}, "b": {got.Classes[1].Latency, want.Classes[1].Latency},
		"a usable": {got.Classes[0].FirstUsable, want.Classes[0].FirstUsable},
		"b usable": {got.Classes[1].FirstUsable, want.Classes[1].FirstUsable},
	} {
		same(name, h[0], h[1])
	}
	if len(got.Timeline) != len(wantSecs) {
		t.Fatalf("%d seconds, want %d", len(got.Timeline), len(wantSecs))
	}
	for i, w := range wantSecs {
		h, err := got.Timeline[i].histogram()
		if err != nil {
			t.Fatal(err)
		}
		same(fmt.Sprint("second ", i), h, w)
	}
	if len(got.TurnBySize) != len(want.TurnBySize) {
		t.Fatalf("turn sizes %d, want %d", len(got.TurnBySize), len(want.TurnBySize))
	}
	for k, w := range want.TurnBySize {
		same(fmt.Sprint("turn of ", k), got.TurnBySize[k], w)
	}
}
