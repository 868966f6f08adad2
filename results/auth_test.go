package results

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// authRun is a measured phase with tokens: reads on a fresh token slower
// than later ones, token requests of every reason, and unauthorized reads.
func authRun(fresh, later int, unauthorized int64) *stats.Phase {
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}})
	rec.EnableAuth()
	rec.Schedule(fresh + later + int(unauthorized))
	for i := range fresh + later {
		lat := 2 * time.Millisecond
		if i < fresh {
			lat = 40 * time.Millisecond
		}
		rec.Read(stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: lat, Service: lat, FreshToken: i < fresh})
	}
	for range unauthorized {
		rec.Read(stats.ReadSample{Outcome: stats.Unauthorized, Sent: true})
	}
	p := rec.Phase()
	for _, q := range []stats.TokenRequest{
		{Reason: "initial", Took: 80 * time.Millisecond},
		{Reason: "expiring", Took: 20 * time.Millisecond},
		{Reason: "refused", Took: 30 * time.Millisecond, Failed: true},
	} {
		p.Auth.Request(q)
	}
	return p
}

// TestAuthBlock: a run with tokens has the auth block, its latency blocks
// built like every other; a run without has auth: null.
func TestAuthBlock(t *testing.T) {
	m := fixtureMeta(false)
	m.AuthLost = "the server refused authorization for 9 reads"
	r, err := Build(m, fixtureWorkload(t), authRun(3, 7, 9), fixtureWarmup())
	if err != nil {
		t.Fatal(err)
	}
	a := r.Auth
	if a == nil {
		t.Fatal("no auth block for a run with tokens")
	}
	q := a.TokenRequests
	if q.Count != 3 || q.Failures != 1 || q.Refreshes != 1 || q.Latency.Count != 3 || q.Latency.MaxMs < 79 || q.Latency.HDR == "" {
		t.Errorf("token requests %+v", q)
	}
	want := map[string]int64{"initial": 1, "expiring": 1, "refused": 1, "step-up": 0}
	for k, n := range want {
		if got, ok := q.ByReason[k]; !ok || got != n {
			t.Errorf("by_reason[%s] = %d (present %v), want %d", k, got, ok, n)
		}
	}
	if a.ReadsFreshToken.Count != 3 || a.ReadsLater.Count != 7 || a.ReadsFreshToken.P50Ms < 39 || a.ReadsLater.P50Ms > 3 {
		t.Errorf("fresh %+v later %+v", a.ReadsFreshToken, a.ReadsLater)
	}
	if a.Unauthorized != 9 || r.Totals.Outcomes["unauthorized"] != 9 || a.Lost != m.AuthLost {
		t.Errorf("unauthorized %d (totals %d), lost %q", a.Unauthorized, r.Totals.Outcomes["unauthorized"], a.Lost)
	}

	plain := fixture(t, false)
	b, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if v, ok := doc["auth"]; !ok || v != nil {
		t.Errorf("auth = %v (present %v) in a run without tokens, want null", v, ok)
	}
}

// TestMergeAddsAuth: merged shards add their token requests and their
// fresh and later reads; a merge of runs without tokens keeps auth null.
func TestMergeAddsAuth(t *testing.T) {
	w := fixtureWorkload(t)
	shard := func(k int, p *stats.Phase) MergeInput {
		return MergeInput{Name: "s" + string(rune('0'+k)), Result: buildShard(t, w, Segment{K: k, N: 2}, [2]*stats.Phase{fixtureWarmup(), p}, 25)}
	}
	got, err := Merge([]MergeInput{shard(1, authRun(2, 5, 1)), shard(2, authRun(1, 4, 0))})
	if err != nil {
		t.Fatal(err)
	}
	a := got.Auth
	if a == nil || a.TokenRequests.Count != 6 || a.TokenRequests.ByReason["refused"] != 2 || a.TokenRequests.Refreshes != 2 ||
		a.ReadsFreshToken.Count != 3 || a.ReadsLater.Count != 9 || a.Unauthorized != 1 || a.TokenRequests.Latency.Count != 6 {
		t.Errorf("merged auth %+v", a)
	}
	_, shards := shardedRuns(2)
	plain, err := Merge([]MergeInput{
		{Name: "a", Result: buildShard(t, w, Segment{K: 1, N: 2}, shards[0], 25)},
		{Name: "b", Result: buildShard(t, w, Segment{K: 2, N: 2}, shards[1], 25)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Auth != nil {
		t.Errorf("merged auth %+v of runs without tokens, want nil", plain.Auth)
	}
}
