package compare

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

// sample is a latency block of n log-normal values (median med, sigma
// 0.5) drawn with seed, times scale.
func sample(t *testing.T, n int, med time.Duration, scale float64, seed uint64) stats.Latency {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	h := stats.NewHistogram()
	for range n {
		v := float64(med) * math.Exp(0.5*rng.NormFloat64()) * scale
		h.Record(time.Duration(v))
	}
	l, err := results.LatencyOf(h)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// synthetic is a result of n reads (and n turns) drawn as sample does.
func synthetic(t *testing.T, n int, scale float64, seed uint64) *results.Result {
	t.Helper()
	r := &results.Result{Workload: workload.Workload{Name: "w", Load: workload.Load{Rate: units.Rate{PerSecond: 50, Text: "50/s"}}}, Digests: map[string]results.Digest{}}
	r.Read = sample(t, n, 20*time.Millisecond, scale, seed)
	r.ReadOK, r.Service, r.TTFB = r.Read, r.Read, r.Read
	r.Lag = sample(t, n, 100*time.Microsecond, 1, seed+2)
	r.Turn = sample(t, n, 40*time.Millisecond, scale, seed+1)
	r.Classes = []results.Class{{Class: "md", Reads: int64(n), Errors: int64(n / 100), Outcomes: map[string]int64{"ok": int64(n - n/100), "timeout": int64(n / 100)}, Latency: r.Read}}
	r.TurnSizes = []results.TurnSize{{Attachments: 2, Latency: r.Turn}}
	r.Totals = results.Totals{Scheduled: int64(n), Outcomes: map[string]int64{"ok": int64(n - n/100), "timeout": int64(n / 100)},
		Errors: int64(n / 100), AchievedRate: figure(50), ReadsPerS: figure(100), MeasuredS: float64(n) / 100, IdentityOK: true}
	return r
}

// TestNoiseVerdicts: two samples of one distribution are called
// significant no more often than the 99% level allows (one in a hundred
// deltas; at most 3 of the 100 here, where 95% intervals gave 5), and a
// 30% slower sample is significant at every draw.
func TestNoiseVerdicts(t *testing.T) {
	same := []string{"read.p50", "read.p90", "read.p99", "turn.p90", "turn.p50"}
	slower := map[string]Noise{"read.p50": Significant, "read.p90": Significant, "read.p99": Significant,
		"read.mean": Untested, "turn.p50": Significant, "read.max": Untested}
	alarms := 0
	for seed := uint64(1); seed <= 20; seed++ {
		cmp, err := Pair(synthetic(t, 3000, 1, seed*100), synthetic(t, 3000, 1, seed*100+50), PairOptions{NoiseFloor: 0})
		if err != nil {
			t.Fatal(err)
		}
		for _, metric := range same {
			d, ok := cmp.Find(metric)
			if !ok {
				t.Fatalf("no delta %s", metric)
			}
			if d.Noise == Significant {
				alarms++
				t.Logf("seed %d: %s %v → %v called significant (interval %v..%v)", seed, metric, d.Base, d.New, d.Low, d.High)
			}
		}
		cmp, err = Pair(synthetic(t, 3000, 1, seed*100), synthetic(t, 3000, 1.3, seed*100+50), PairOptions{NoiseFloor: -1})
		if err != nil {
			t.Fatal(err)
		}
		for metric, want := range slower {
			if d, _ := cmp.Find(metric); d.Noise != want {
				t.Errorf("30%% slower, seed %d: %s %v → %v: %s, want %s (interval %v..%v)", seed, metric, d.Base, d.New, d.Noise, want, d.Low, d.High)
			}
		}
	}
	if alarms > 3 {
		t.Errorf("same distribution: %d of 100 deltas called significant, want at most 3", alarms)
	}
}

// TestTooFewValues: a p99.9 of 300 values is not tested.
func TestTooFewValues(t *testing.T) {
	cmp, err := Pair(synthetic(t, 300, 1, 1), synthetic(t, 300, 2, 2), PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := cmp.Find("read.p999")
	if d.Noise != Untested || !strings.Contains(d.Note, "too few") {
		t.Errorf("p999 of 300: %+v", d)
	}
}

// TestNoiseFloor: a real but small change is within the noise under the
// floor and significant with no floor.
func TestNoiseFloor(t *testing.T) {
	base, nw := synthetic(t, 200000, 1, 1), synthetic(t, 200000, 1.03, 2)
	for floor, want := range map[float64]Noise{-1: WithinNoise, 0.05: WithinNoise, 0: Significant} { // -1: the default
		cmp, _ := Pair(base, nw, PairOptions{NoiseFloor: floor})
		if d, _ := cmp.Find("read.p50"); d.Noise != want {
			t.Errorf("floor %v: %+v, want %s", floor, d, want)
		}
	}
}

// TestLagSlack: a change of latency from the intended start that the
// generator's own lateness accounts for is within the noise, though the
// histograms alone would call it significant; service time, timed from
// the send, gets no such slack.
func TestLagSlack(t *testing.T) {
	base, nw := synthetic(t, 3000, 1, 1), synthetic(t, 3000, 1, 2)
	nw.Read = sample(t, 3000, 20*time.Millisecond, 1.3, 2) // 6 ms later at the median...
	nw.Service = nw.Read
	nw.Lag = sample(t, 3000, 7*time.Millisecond, 1, 3) // ...of which about 7 ms the generator's
	cmp, _ := Pair(base, nw, PairOptions{})
	for metric, want := range map[string]Noise{"read.p50": WithinNoise, "service.p50": Significant} {
		if d, _ := cmp.Find(metric); d.Noise != want {
			t.Errorf("%s: %+v, want %s", metric, d, want)
		}
	}
}

func TestShareAndRate(t *testing.T) {
	a, b := synthetic(t, 1000, 1, 1), synthetic(t, 1000, 1, 2)
	b.Totals.Errors, b.Totals.Outcomes["timeout"], b.Totals.Outcomes["ok"] = 100, 100, 900
	b.Totals.AchievedRate = figure(25)
	cmp, _ := Pair(a, b, PairOptions{})
	for metric, want := range map[string]Noise{"errors": Significant, "outcome.timeout": Significant, "outcome.ok": Significant,
		"outcome.cancelled": Unchanged, "rate": Significant, "read_rate": Unchanged, "class.md.errors": Unchanged} {
		if d, _ := cmp.Find(metric); d.Noise != want {
			t.Errorf("%s: %+v, want %s", metric, d, want)
		}
	}
	if d, _ := cmp.Find("errors"); math.Abs(d.Change-9) > 1e-9 {
		t.Errorf("errors change in points: %v, want 9", d.Change)
	}
}

func TestMismatch(t *testing.T) {
	a, b := synthetic(t, 100, 1, 1), synthetic(t, 100, 1, 2)
	b.Workload.Name, b.Workload.Load.Rate = "other", units.Rate{PerSecond: 60, Text: "60/s"}
	b.Workload.Load.Duration = time.Minute // a note, not a difference
	_, err := Pair(a, b, PairOptions{})
	var me *MismatchError
	if !errors.As(err, &me) || len(me.Differences) != 2 || !strings.Contains(err.Error(), `load.rate: "50/s" vs "60/s"`) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("got %v", err)
	}
	b.Read.LowerBounds = 3 // of 100: p97 and above are lower bounds
	cmp, err := Pair(a, b, PairOptions{Force: true})
	if err != nil || !cmp.Forced || len(cmp.Differences) != 2 || len(cmp.Notes) != 2 || !strings.Contains(cmp.Notes[1], "3 reads of the new run were cut") || !strings.Contains(cmp.Notes[1], "at or above p97 are lower bounds") {
		t.Fatalf("forced: %+v, %v", cmp, err)
	}
}

func TestContent(t *testing.T) {
	a, b := synthetic(t, 10, 1, 1), synthetic(t, 10, 1, 2)
	a.Digests = map[string]results.Digest{"u1": {SHA256: "sha256:aa", MIME: "text/plain", Bytes: 3}, "u2": {SHA256: "sha256:bb", MIME: "image/png", Bytes: 4}, "u3": {SHA256: "sha256:cc", MIME: "a/b", Bytes: 1}, "gone": {}}
	b.Digests = map[string]results.Digest{"u1": {SHA256: "sha256:aa", MIME: "text/plain", Bytes: 3}, "u2": {SHA256: "sha256:bx", MIME: "image/jpeg", Bytes: 5}, "u3": {SHA256: "sha256:cd", MIME: "a/b", Bytes: 1}, "new": {}}
	cmp, _ := Pair(a, b, PairOptions{})
	c := cmp.Content
	if c.Compared != 3 || c.OnlyBase != 1 || c.OnlyNew != 1 || len(c.Changed) != 2 ||
		strings.Join(c.Changed[0].What, ",") != "bytes,mime,size" || c.Changed[1].URI != "u3" || strings.Join(c.Changed[1].What, ",") != "bytes" {
		t.Errorf("got %+v", c)
	}
}

// TestSameResult: a result against itself is unchanged everywhere.
func TestSameResult(t *testing.T) {
	r, err := results.Load("../results/testdata/result.json")
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Pair(r, r, PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range cmp.AllDeltas() {
		if d.Noise != Unchanged {
			t.Errorf("%s: %s", d.Metric, d.Noise)
		}
	}
	if len(cmp.Classes) != 3 || len(cmp.Latency) != 8 { // read, read_ok, turn, service, ttfb, lag, handshake, first_read
		t.Errorf("classes %d, latency blocks %d", len(cmp.Classes), len(cmp.Latency))
	}
}
