package stats

import (
	"encoding/base64"
	"sync"
	"testing"
	"time"
)

func TestBase64Arithmetic(t *testing.T) {
	cases := []struct {
		n       int64
		length  int64
		padding int
		why     string
	}{
		{0, 0, 0, "nothing encodes to nothing"},
		{1, 4, 2, "one byte costs a whole group, two '='"},
		{2, 4, 1, "two bytes: one '='"},
		{3, 4, 0, "a whole group"},
		{1834208, 2445612, 1, "a 1,834,208-byte PNG: 2,445,612 characters, one '='"},
		{3_000_000, 4_000_000, 0, "a 3 MB mockup: 4 MB; 40 of them are a 160 MB folder read"},
	}
	for _, c := range cases {
		if got := Base64Len(c.n); got != c.length {
			t.Errorf("%s: Base64Len(%d) = %d, want %d", c.why, c.n, got, c.length)
		}
		if got := Base64Padding(c.n); got != c.padding {
			t.Errorf("%s: Base64Padding(%d) = %d, want %d", c.why, c.n, got, c.padding)
		}
		if c.n < 100 { // cross-check against the encoder itself
			enc := base64.StdEncoding.EncodeToString(make([]byte, c.n))
			if int64(len(enc)) != c.length {
				t.Errorf("encoder disagrees for %d", c.n)
			}
		}
	}
	if got := 40 * Base64Len(3_000_000); got != 160_000_000 {
		t.Errorf("40 mockups: %d", got)
	}
}

func TestHistogram(t *testing.T) {
	h := NewHistogram()
	for i := 1; i <= 1000; i++ {
		h.Record(time.Duration(i) * time.Millisecond)
	}
	h.Record(0)             // clamped to 1 µs, still counted
	h.Record(2 * time.Hour) // clamped to 1 h, still counted
	if h.Count() != 1002 {
		t.Fatalf("count %d", h.Count())
	}
	within := func(got, want time.Duration) bool {
		d := got - want
		if d < 0 {
			d = -d
		}
		return d <= want/500 // 3 significant digits: 0.1%, with rounding room
	}
	p50, p99, top := h.Quantile(50), h.Quantile(99), h.Max()
	if !within(p50, 500*time.Millisecond) || !within(p99, 990*time.Millisecond) {
		t.Errorf("p50 %v p99 %v", p50, p99)
	}
	if !within(top, time.Hour) {
		t.Errorf("max %v", top)
	}
	enc, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeHistogram(enc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Count() != h.Count() || back.Quantile(99) != h.Quantile(99) {
		t.Errorf("round trip changed the histogram")
	}
	m := NewHistogram()
	m.Merge(h)
	m.Merge(back)
	if m.Count() != 2*h.Count() {
		t.Errorf("merge count %d", m.Count())
	}
	for _, bad := range []string{"", "!!", "AAAA", base64.StdEncoding.EncodeToString([]byte("0123456789abcdef"))} {
		if _, err := DecodeHistogram(bad); err == nil {
			t.Errorf("DecodeHistogram(%q) accepted", bad)
		}
	}
}

func TestOutcomes(t *testing.T) {
	for o := Outcome(0); o < NumOutcomes; o++ {
		back, ok := ParseOutcome(o.String())
		if !ok || back != o {
			t.Errorf("outcome %d does not round-trip", o)
		}
	}
	if _, ok := ParseOutcome("nope"); ok {
		t.Error("unknown outcome parsed")
	}
	var c Counts
	c[OK], c[ExpectedError], c[Timeout], c[Dropped] = 5, 2, 1, 3
	if c.Total() != 11 || c.Errors() != 4 {
		t.Errorf("total %d errors %d", c.Total(), c.Errors())
	}
	if err := CheckIdentity(11, &c); err != nil {
		t.Error(err)
	}
	if err := CheckIdentity(12, &c); err == nil {
		t.Error("a lost read was not noticed")
	}
	if m := c.Map(); len(m) != int(NumOutcomes) || m["dropped"] != 3 {
		t.Errorf("map %v", m)
	}
}

func TestRecorderConcurrent(t *testing.T) {
	r := NewRecorder([]ClassInfo{{Name: "a"}, {Name: "b"}})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				r.Schedule(1)
				out := OK
				if i%10 == 0 {
					out = Cancelled
				}
				r.Read(ReadSample{Class: i % 2, Outcome: out, Answered: out == OK, Latency: time.Millisecond, ByteCounts: ByteCounts{WireBytes: 10, DiskBytes: 7}, Fresh: i%20 == 0})
			}
			r.Turn(TurnSample{Latency: time.Millisecond, End: TurnCut, Reads: 3})
			r.LateAnswer(100, time.Millisecond)
		}(g)
	}
	wg.Wait()
	run := r.Phase()
	if err := CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Fatal(err)
	}
	if run.Scheduled != 4000 || run.Read.Count() != 3600 || run.Cancel.Cancelled != 400 {
		t.Errorf("scheduled %d answered %d cancelled %d", run.Scheduled, run.Read.Count(), run.Cancel.Cancelled)
	}
	if run.Classes[0].Outcomes.Total()+run.Classes[1].Outcomes.Total() != 4000 || run.WireBytes != 40000 {
		t.Errorf("class totals or bytes wrong")
	}
	if h := run.TurnBySize[3]; h == nil || h.Count() != 8 || len(run.TurnBySize) != 1 {
		t.Errorf("turn latency by size: %v", run.TurnBySize)
	}
	if run.Classes[0].Cache.WouldNotSend != 8*25 {
		t.Errorf("would-not-send %d", run.Classes[0].Cache.WouldNotSend)
	}
	if run.TurnEndCount(TurnCut) != 8 || run.Cancel.LateAnswers != 8 || run.Cancel.WastedBytes != 800 {
		t.Errorf("turns or late answers wrong: %+v", run.Cancel)
	}
}

func FuzzDecodeHistogram(f *testing.F) {
	h := NewHistogram()
	h.Record(time.Millisecond)
	enc, _ := h.Encode()
	f.Add(enc)
	f.Add("HISTFAAAAB14nJNpmSzMwMDAxQABzFCaEUzkgmUB")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = DecodeHistogram(s) // must not panic
	})
}
