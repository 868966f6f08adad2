package results

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestStraysKeptAndJudged (issue 47, item 20): what a server sent that
// readbench could only skip is in the result (documented, key by key),
// adds up over shards, and marks the verdict "!" with a reason saying
// the counts, without changing the health: the figures stand.
func TestStraysKeptAndJudged(t *testing.T) {
	doc, err := os.ReadFile("../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	for f := range reflect.TypeFor[Strays]().Fields() {
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if row := "| `strays." + key + "` |"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/results.md has no row %s", row)
		}
	}
	for _, c := range []struct {
		name   string
		strays Strays
		mark   string
		reason string
	}{
		{"none", Strays{}, "✓", ""},
		{"answers to ids never sent", Strays{UnknownIDAnswers: 20}, "!", "20 answers to ids readbench never sent"},
		{"requests answered twice", Strays{DuplicateAnswers: 1}, "!", "1 request answered twice"},
		{"stdout lines", Strays{Lines: 3}, "!", "3 lines on stdout that are not JSON-RPC"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := fixture(t, false)
			r.Totals.TurnEnds.Cut, r.Totals.TurnEnds.Complete = 0, r.Totals.Turns // a clean run
			r.Totals.Outcomes["timeout"], r.Totals.Outcomes["ok"] = 0, r.Totals.Outcomes["ok"]+r.Totals.Outcomes["timeout"]
			r.Strays = c.strays
			h := HealthOf(r)
			if h.Health != StateHealthy || h.Mark() != c.mark {
				t.Errorf("%s %q, want healthy marked %s", h.Health, h.Line, c.mark)
			}
			said := strings.Join(h.Reasons, "\n")
			if c.reason != "" && !strings.Contains(said, c.reason) || c.reason == "" && strings.Contains(said, "skip") {
				t.Errorf("reasons %q, want %q", h.Reasons, c.reason)
			}
		})
	}

	w := fixtureWorkload(t)
	_, shards := shardedRuns(2)
	var in []MergeInput
	for k := 1; k <= 2; k++ {
		r := buildShard(t, w, Segment{K: k, N: 2}, shards[k-1], 25)
		r.Strays = Strays{Lines: int64(k), UnknownIDAnswers: 10 * int64(k), DuplicateAnswers: 100 * int64(k)}
		in = append(in, MergeInput{Name: fmt.Sprint("shard", k), Result: r})
	}
	got, err := Merge(in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Strays != (Strays{Lines: 3, UnknownIDAnswers: 30, DuplicateAnswers: 300}) {
		t.Errorf("merged strays %+v, want the shards' sum", got.Strays)
	}
}
