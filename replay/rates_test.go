package replay

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// spreadRecording is a recording of n one-read turns over span, the
// first at 0 and the last at span, the others at random times between
// (µs precision, as the proxy writes at_ms), on two sessions.
func spreadRecording(n int, span time.Duration, seed uint64) *record.Recording {
	r := rand.New(rand.NewPCG(seed, 47))
	us := span.Microseconds()
	at := []int64{0}
	for k := 1; k < n; k++ {
		switch {
		case k == n-1:
			at = append(at, us)
		case us > 0:
			at = append(at, r.Int64N(us+1))
		default:
			at = append(at, 0)
		}
	}
	slices.Sort(at)
	rec := &record.Recording{Header: record.Header{Type: record.TypeHeader, Format: record.Format, Version: record.Version, Upstream: "http://127.0.0.1:1/mcp"}}
	for k, a := range at {
		rec.Reads = append(rec.Reads, record.Read{Type: record.TypeRead, AtMs: float64(a) / 1000, Session: []string{"s1", "s2"}[k%2], Turn: k + 1,
			URI: "doc://text/1k", Outcome: "ok", Bytes: 1024, MIME: "text/markdown", LatencyMs: 1})
	}
	return rec
}

// checkRateReadsBack holds one rate readbench wrote to what the issue asks
// of it (issue 47, item 7): never in exponent notation, read back by
// readbench's own parser to the value the workload holds, and that value's
// text (what a saved result shows) read back to the very same value.
func checkRateReadsBack(t *testing.T, where string, r units.Rate) {
	t.Helper()
	if strings.ContainsAny(r.Text, "eE") {
		t.Errorf("%s: a rate in exponent notation: %q", where, r.Text)
	}
	back, err := units.ParseStageRate(r.Text)
	if err != nil || back.PerSecond != r.PerSecond {
		t.Errorf("%s: %q holds %v/s; parsed again: %v/s, %v", where, r.Text, r.PerSecond, back.PerSecond, err)
	}
	canon := units.Rate{PerSecond: r.PerSecond}.String()
	if back, err := units.ParseStageRate(canon); err != nil || back.PerSecond != r.PerSecond {
		t.Errorf("%s: %v/s written %q reads back as %v/s, %v", where, r.PerSecond, canon, back.PerSecond, err)
	}
}

// loadRoundTrip saves a workload's load as a result saves it and reads it
// back, so that the rates a result keeps are the rates that ran.
func loadRoundTrip(t *testing.T, where string, l workload.Load) {
	t.Helper()
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var back workload.Load
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%s: the saved load %s does not read back: %v", where, b, err)
	}
	if back.Rate.PerSecond != l.Rate.PerSecond || len(back.Stages) != len(l.Stages) {
		t.Fatalf("%s: saved %s, read back rate %v/s and %d stages", where, b, back.Rate.PerSecond, len(back.Stages))
	}
	for i, st := range l.Stages {
		if back.Stages[i].Rate.PerSecond != st.Rate.PerSecond || back.Stages[i].For != st.For {
			t.Errorf("%s: stage %d saved %s, read back as %v/s for %s", where, i, b, back.Stages[i].Rate.PerSecond, back.Stages[i].For)
		}
	}
}

// FuzzWrittenRatesReadBack: whatever the recording (1 to 400 turns over up
// to 1,000 hours, at any times), every rate `init --from` and `replay`
// write reads back through readbench's own parser and a saved result to
// the same value, never in exponent notation, and the workload schedules
// exactly the recorded turns: each stage a whole number of them (no floor
// invents any), their sum the recording's (a recorded hour of 2 turns
// asks 2, not 36).
func FuzzWrittenRatesReadBack(f *testing.F) {
	for _, s := range []struct {
		turns  uint16
		spanMs uint64
	}{
		{2, 3_600_000}, {2, 36_000_000}, {3, 43_200_000}, {40, 20_000}, {1, 0}, {5, 3_599_000_000},
		{7, 1}, {300, 59_999}, {2, 1_000}, {11, 86_399_999}, {399, 3_599_999_999},
	} {
		f.Add(s.turns, s.spanMs, uint64(1))
	}
	f.Fuzz(func(t *testing.T, turns uint16, spanMs, seed uint64) {
		n := max(1, int(turns)%401)
		span := time.Duration(spanMs%(1000*3_600_000)) * time.Millisecond
		if n == 1 {
			span = 0
		}
		rec := spreadRecording(n, span, seed)

		out, err := Starter(rec, "rec.jsonl")
		if err != nil {
			t.Fatalf("%d turns over %s: %v", n, span, err)
		}
		w, err := yamlfile.Parse("starter", out)
		if err != nil {
			t.Fatalf("%d turns over %s: the starter does not parse: %v\n%s", n, span, err, out)
		}
		checkRateReadsBack(t, "init --from's rate", w.Load.Rate)
		asked := w.Load.Rate.PerSecond * w.Load.Duration.Seconds()
		if len(w.Load.Stages) > 0 {
			asked = 0
			for i, st := range w.Load.Stages {
				checkRateReadsBack(t, "init --from's stage", st.Rate)
				k := st.Rate.PerSecond * st.For.Seconds()
				if math.Abs(k-math.Round(k)) > 1e-9 {
					t.Errorf("stage %d asks %v turns (%q for %s): not a whole number\n%s", i, k, st.Rate.Text, st.For, out)
				}
				asked += k
			}
		}
		if math.Abs(asked-float64(n)) > 1e-9*float64(n) {
			t.Errorf("%d turns over %s: init --from's workload asks %v turns\n%s", n, span, asked, out)
		}
		loadRoundTrip(t, "init --from", w.Load)

		p, err := Prepare(rec, Options{File: "rec.jsonl"})
		if err != nil {
			t.Fatalf("%d turns over %s: %v", n, span, err)
		}
		l := p.Workload.Load
		checkRateReadsBack(t, "replay's rate", l.Rate)
		if got := l.Rate.PerSecond * l.Duration.Seconds(); math.Abs(got-float64(n)) > 1e-9*float64(n) {
			t.Errorf("%d turns over %s: replay's workload asks %v turns (%q for %s)", n, span, got, l.Rate.Text, l.Duration)
		}
		loadRoundTrip(t, "replay", l)
	})
}
