package stats

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

// TestBufferedHistogramIsDirect: a histogram that holds its values until
// read says and encodes exactly what one recording each value at once
// does, whenever it is read (mid-batch, at a batch's end, after it), and
// merges the same both ways.
func TestBufferedHistogramIsDirect(t *testing.T) {
	direct, held := NewHistogram(), NewHistogram().buffered()
	other := NewHistogram().buffered()
	check := func(when string) {
		t.Helper()
		if g, w := held.Summary(), direct.Summary(); g != w {
			t.Fatalf("%s: summary %+v, want %+v", when, g, w)
		}
		ge, err := held.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if we, _ := direct.Encode(); ge != we {
			t.Fatalf("%s: encodings differ", when)
		}
		if len(held.pending) != 0 {
			t.Fatalf("%s: %d values still held after reading", when, len(held.pending))
		}
	}
	vals := []time.Duration{0, -time.Second, 2 * time.Hour, time.Hour, time.Microsecond, 999 * time.Nanosecond}
	for i := range 3*pendingCap + 17 {
		vals = append(vals, time.Duration(1+i*i*37)*time.Microsecond)
	}
	for i, d := range vals {
		direct.Record(d)
		held.Record(d)
		other.Record(d)
		switch i {
		case 3, pendingCap - 1, pendingCap, 2*pendingCap + 5:
			check("after " + d.String())
		}
	}
	check("at the end")
	m1, m2 := NewHistogram(), NewHistogram()
	m1.Merge(direct)
	m2.Merge(other) // other still holds its last values: Merge reads them too
	if g, w := m2.Summary(), m1.Summary(); g != w {
		t.Fatalf("merged: %+v, want %+v", g, w)
	}
	if CountAbove(other, time.Second) != CountAbove(direct, time.Second) || other.Percentiles() != direct.Percentiles() {
		t.Fatal("CountAbove or Percentiles differ")
	}
}

// TestRecorderPhaseSettled: a Recorder's histograms hold the values of
// the reads it records (what makes a read cheap), and the Phase it
// returns holds none anywhere: readers of a Phase may read it from many
// goroutines at once, which -race checks here.
func TestRecorderPhaseSettled(t *testing.T) {
	r := NewRecorder([]ClassInfo{{Name: "a"}, {Name: "b"}})
	r.EnableAuth()
	start := time.Now()
	r.StartTimeline(start)
	for i := range 300 {
		s := readSample(start, i, time.Duration(100+i)*time.Microsecond)
		s.Class = i % 2
		s.Chunks = []time.Duration{time.Duration(i) * time.Microsecond}
		s.FirstUsable = s.Latency / 2
		s.FirstOnSession = i%7 == 0
		s.FreshToken = i%5 == 0
		r.Read(s)
		r.Turn(TurnSample{Latency: s.Latency, Reads: 1 + i%2, Intended: start, Started: start, Ended: s.End})
		r.Handshake(time.Millisecond)
		r.Late(LateSample{AfterCancel: time.Millisecond})
	}
	if held := len(r.run.Read.pending); held == 0 {
		t.Fatal("the Recorder's read histogram holds no values: it adds each at once")
	}
	p := r.Phase()
	walkHistograms(reflect.ValueOf(p), func(path string, h *Histogram) {
		if len(h.pending) != 0 {
			t.Errorf("%s holds %d values after Phase", path, len(h.pending))
		}
	})
	if p.Read.Count() != 300 || p.Classes[1].Chunk.Count() != 150 || p.TurnBySize[2].Count() != 150 {
		t.Fatalf("counts %d %d %d", p.Read.Count(), p.Classes[1].Chunk.Count(), p.TurnBySize[2].Count())
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			walkHistograms(reflect.ValueOf(p), func(_ string, h *Histogram) { _ = h.Summary() })
		})
	}
	wg.Wait()
}

// walkHistograms calls f with every *Histogram reachable from v.
func walkHistograms(v reflect.Value, f func(path string, h *Histogram)) {
	walk(v, "Phase", f)
}

func walk(v reflect.Value, path string, f func(string, *Histogram)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if h, ok := v.Interface().(*Histogram); ok {
			f(path, h)
			return
		}
		walk(v.Elem(), path, f)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walk(v.Index(i), path+"[]", f)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walk(it.Value(), path+"{}", f)
		}
	}
}
