package results

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// shardedRuns records the same turns once whole and split over n shards
// the way --segment splits them (turn i to shard i mod n), measured and
// warmup phases on one clock: what merge must reproduce.
func shardedRuns(n int) (whole [2]*stats.Phase, shards [][2]*stats.Phase) {
	classes := []stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}, {Name: "screenshot", MIME: "image/png"}, {Name: "renamed-policy"}}
	start := fixtureStart()
	newPair := func() [2]*stats.Recorder {
		p := [2]*stats.Recorder{stats.NewRecorder(classes), stats.NewRecorder(classes)}
		p[0].StartTimeline(start)
		p[1].StartTimeline(start)
		return p
	}
	all := newPair()
	parts := make([][2]*stats.Recorder, n)
	for k := range parts {
		parts[k] = newPair()
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 600 {
		intended := start.Add(time.Duration(i) * 20 * time.Millisecond) // 50/s for 12 s
		phase := 1
		if intended.Sub(start) < 2*time.Second {
			phase = 0 // warmup
		}
		recs := []*stats.Recorder{all[phase], parts[i%n][phase]}
		var reads []stats.ReadSample
		for range 4 {
			c := rng.IntN(3)
			lat := time.Duration(1+rng.IntN(200000)) * time.Microsecond
			s := stats.ReadSample{Class: c, Outcome: stats.OK, Answered: true, Sent: true, Latency: lat, Service: lat / 2,
				TTFB: lat / 4, Lag: time.Duration(rng.IntN(900)) * time.Microsecond, ByteCounts: stats.ByteCounts{WireBytes: 1400, DiskBytes: 1000}, End: intended.Add(lat)}
			switch {
			case c == 2:
				s.Outcome, s.WireBytes, s.DiskBytes = stats.ExpectedError, 90, 0
			case lat > 190*time.Millisecond:
				s.Outcome, s.Answered, s.LowerBound = stats.Timeout, false, true
			case c == 1:
				s.Base64Bytes, s.Base64Padding, s.HasTTL, s.TTL, s.CacheScope = 1336, 1, true, time.Duration(1+rng.IntN(9))*time.Second, "public"
			}
			reads = append(reads, s)
		}
		reads[0].FirstOnSession = i%60 == 0 // a new session every 60 turns
		for _, rec := range recs {
			if i%60 == 0 {
				rec.Handshake(time.Duration(20+i/60) * time.Millisecond)
			}
			rec.Schedule(len(reads))
			last := intended
			for _, s := range reads {
				rec.Read(s)
				if s.End.After(last) {
					last = s.End
				}
			}
			rec.Turn(stats.TurnSample{Latency: last.Sub(intended), Intended: intended, Started: intended, Ended: last, Reads: len(reads)})
		}
	}
	whole = [2]*stats.Phase{all[0].Phase(), all[1].Phase()}
	for _, p := range parts {
		shards = append(shards, [2]*stats.Phase{p[0].Phase(), p[1].Phase()})
	}
	return whole, shards
}

func buildShard(t *testing.T, w *workload.Workload, seg Segment, runs [2]*stats.Phase, asked float64) *Result {
	t.Helper()
	r, err := Build(Meta{
		ToolName: "readbench", ToolVersion: "test", Started: fixtureStart(), Ended: fixtureStart().Add(13 * time.Second),
		Target:    Target{Address: "embedded", Transport: "stdio", Server: Server{Name: "sim", Version: "1"}},
		AskedRate: asked, Measured: 10 * time.Second, Segment: seg,
	}, w, runs[1], runs[0])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMergeEqualsOneRun: the merge of the shards' documents is the
// document of the whole run, key by key, for everything the shards can
// know (not the host, the shard list or the server cost, which the merge
// reports per shard).
func TestMergeEqualsOneRun(t *testing.T) {
	w := fixtureWorkload(t)
	for _, n := range []int{2, 3} {
		whole, shards := shardedRuns(n)
		want := buildShard(t, w, Segment{}, whole, 50)
		var in []MergeInput
		for k := n; k >= 1; k-- { // any order
			in = append(in, MergeInput{Name: "shard" + string(rune('0'+k)), Result: buildShard(t, w, Segment{K: k, N: n}, shards[k-1], 50/float64(n))})
		}
		got, err := Merge(in)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Shards) != n || got.Shards[0].Segment.K != 1 {
			t.Errorf("n=%d: shards %+v", n, got.Shards)
		}
		for _, key := range []string{"totals", "read", "read_ok", "lag", "service", "ttfb", "turn", "turn_sizes", "classes",
			"cancellation", "shape", "timeline", "advice", "warmup", "segment", "generator_bound", "lag_bound_ms", "workload",
			"handshake", "first_read", "verdict"} {
			a, b := field(t, want, key), field(t, got, key)
			if a != b {
				t.Errorf("n=%d: %s differs:\none run: %.600s\nmerged:  %.600s", n, key, a, b)
			}
		}
	}
}

// TestMergeAddsGeneratorCost: shards are separate processes, so the
// merged generator CPU is their sum (per 1,000 reads over all reads) and
// the peak memory the largest shard's; one shard that could not measure
// its CPU makes the run's unknown.
func TestMergeAddsGeneratorCost(t *testing.T) {
	w := fixtureWorkload(t)
	_, shards := shardedRuns(2)
	var in []MergeInput
	for k := 1; k <= 2; k++ {
		r := buildShard(t, w, Segment{K: k, N: 2}, shards[k-1], 25)
		r.Generator = generatorOf(int64(k)<<20, time.Duration(k)*time.Second, r.Service.Count)
		in = append(in, MergeInput{Name: fmt.Sprint("shard", k), Result: r})
	}
	got, err := Merge(in)
	if err != nil {
		t.Fatal(err)
	}
	g := got.Generator
	reads := in[0].Result.Service.Count + in[1].Result.Service.Count
	if !g.CPUAvailable || g.CPUSeconds != 3 || g.PeakRSSBytes != 2<<20 || g.CPUMsPer1000Reads == nil || *g.CPUMsPer1000Reads != costMillis(time.Duration(3e12/float64(reads))) {
		t.Fatalf("merged generator %+v, want 3 s of CPU over %d reads and a 2 MiB peak", g, reads)
	}
	in[1].Result.Generator.CPUAvailable = false
	if got, err = Merge(in); err != nil || got.Generator.CPUAvailable || got.Generator.CPUSeconds != 0 {
		t.Fatalf("one shard unknown: merged %+v, %v; want unknown", got.Generator, err)
	}
}

// field is one top-level key of r as JSON.
func field(t *testing.T, r *Result, key string) string {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return string(m[key])
}

// TestMergeRefuses: what is not exactly the n shards of one run is refused
// with a message that names it.
func TestMergeRefuses(t *testing.T) {
	w := fixtureWorkload(t)
	_, shards := shardedRuns(3)
	shard := func(k, n int) *Result { return buildShard(t, w, Segment{K: k, N: n}, shards[(k-1)%3], 1) }
	other := fixtureWorkload(t)
	other.Seed = 43
	otherShard := buildShard(t, other, Segment{K: 3, N: 3}, shards[2], 1)
	late := shard(3, 3)
	late.Started, late.Ended = NewTimestamp(fixtureStart().Add(time.Hour)), NewTimestamp(fixtureStart().Add(time.Hour+time.Minute))
	server := shard(3, 3)
	server.Target.Server.Version = "2"
	in := func(rs ...*Result) []MergeInput {
		var out []MergeInput
		for i, r := range rs {
			out = append(out, MergeInput{Name: "f" + string(rune('1'+i)), Result: r})
		}
		return out
	}
	for _, c := range []struct {
		name string
		in   []MergeInput
		want string
	}{
		{"none", nil, "no shards"},
		{"whole", in(shard(1, 3), buildShard(t, w, Segment{}, shards[0], 1)), "is a whole run"},
		{"splits", in(shard(1, 3), shard(2, 2)), "different splits"},
		{"duplicate", in(shard(1, 3), shard(2, 3), shard(2, 3)), "both segment 2/3"},
		{"missing", in(shard(1, 3), shard(3, 3)), "segment 2/3 missing"},
		{"workload", in(shard(1, 3), shard(2, 3), otherShard), "workload.seed differs"},
		{"server", in(shard(1, 3), shard(2, 3), server), "differ in server"},
		{"not together", in(shard(1, 3), shard(2, 3), late), "did not run at the same time"},
	} {
		_, err := Merge(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestMergeOddInputs: hand-edited shards (a class missing, a start a day
// away, an outcome readbench does not know) are merged or refused with an
// error, never a panic. (Parse, which reads them, is fuzzed.)
func TestMergeOddInputs(t *testing.T) {
	w := fixtureWorkload(t)
	_, shards := shardedRuns(2)
	pair := func() (a, b *Result) {
		return buildShard(t, w, Segment{K: 1, N: 2}, shards[0], 1), buildShard(t, w, Segment{K: 2, N: 2}, shards[1], 1)
	}
	a, b := pair()
	b.Classes = b.Classes[:1]
	if _, err := Merge([]MergeInput{{"b", b}, {"a", a}}); err == nil || !strings.Contains(err.Error(), "differ in classes") {
		t.Errorf("a class missing from one shard: %v", err)
	}
	a, b = pair()
	b.Ended = NewTimestamp(fixtureStart().Add(48 * time.Hour))
	b.Started = NewTimestamp(fixtureStart().Add(25 * time.Hour))
	a.Ended = NewTimestamp(fixtureStart().Add(30 * time.Hour))
	if _, err := Merge([]MergeInput{{"a", a}, {"b", b}}); err == nil || !strings.Contains(err.Error(), "timeline") {
		t.Errorf("a shard a day later: %v", err)
	}
	a, b = pair()
	b.Totals.Outcomes["exploded"] = 3
	if _, err := Merge([]MergeInput{{"a", a}, {"b", b}}); err == nil || !strings.Contains(err.Error(), "exploded") {
		t.Errorf("an unknown outcome: %v", err)
	}
}

// TestMergeAddsSessions: the sessions of shards add up, their failures
// by reason.
func TestMergeAddsSessions(t *testing.T) {
	w := fixtureWorkload(t)
	_, shards := shardedRuns(2)
	var in []MergeInput
	for k := 1; k <= 2; k++ {
		r := buildShard(t, w, Segment{K: k, N: 2}, shards[k-1], 25)
		r.Sessions = Sessions{Asked: 10, Connected: 10 - k, Failed: k, Opened: int64(20 - k), Replaced: 10,
			Errors: []SessionError{{Message: "refused", Count: int64(k)}}}
		in = append(in, MergeInput{Name: fmt.Sprint("shard", k), Result: r})
	}
	got, err := Merge(in)
	if err != nil {
		t.Fatal(err)
	}
	s := got.Sessions
	if s.Asked != 20 || s.Connected != 17 || s.Failed != 3 || s.Opened != 37 || s.Replaced != 20 ||
		len(s.Errors) != 1 || s.Errors[0] != (SessionError{Message: "refused", Count: 3}) {
		t.Errorf("merged sessions %+v", s)
	}
	if got.Handshake.Count == 0 || got.Handshake.Count != in[0].Result.Handshake.Count+in[1].Result.Handshake.Count {
		t.Errorf("merged handshake count %d, want the shards' sum", got.Handshake.Count)
	}
}
