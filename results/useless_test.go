package results

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestUseless: a run is useless when it sent nothing or no read it sent
// succeeded; one ok answer or met expectation makes it useful.
func TestUseless(t *testing.T) {
	counts := func(kv map[stats.Outcome]int64) Totals {
		var c stats.Counts
		for o, n := range kv {
			c[o] = n
		}
		return Totals{Scheduled: c.Total(), Outcomes: c.Map()}
	}
	for _, c := range []struct {
		name string
		tot  Totals
		want string // a part of the reason, "" for a useful run
	}{
		{"nothing scheduled", counts(nil), "no read was scheduled"},
		{"all dropped", counts(map[stats.Outcome]int64{stats.Dropped: 2_000_000}), "all 2,000,000 scheduled reads were dropped"},
		{"all not found", counts(map[stats.Outcome]int64{stats.NotFound: 40}), "all 40 reads sent failed, most of them not_found (100.0%)"},
		{"no method", counts(map[stats.Outcome]int64{stats.MethodNotFound: 30, stats.Dropped: 3}), "the server does not implement resources/read"},
		{"all cancelled", counts(map[stats.Outcome]int64{stats.Cancelled: 9, stats.Timeout: 1}), "most of them cancelled (90.0%)"},
		{"one ok", counts(map[stats.Outcome]int64{stats.OK: 1, stats.NotFound: 99}), ""},
		{"expected errors only", counts(map[stats.Outcome]int64{stats.ExpectedError: 5}), ""},
	} {
		got := Useless(c.tot)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: Useless = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestMethodNotFoundAdvice: the advice of a run against a server without
// resources/read says so first, once.
func TestMethodNotFoundAdvice(t *testing.T) {
	run := &stats.Phase{Scheduled: 40}
	run.Outcomes[stats.MethodNotFound] = 40
	a := advice(policy{parallel: 1}, run, GeneratorFinding{}, 0, Health{}, contention{})
	if len(a.Reasoning) == 0 || !strings.HasPrefix(a.Reasoning[0], "The server does not implement resources/read: 40 reads (100.0%)") {
		t.Fatalf("reasoning %q", a.Reasoning)
	}
	for _, s := range a.Reasoning[1:] {
		if strings.Contains(s, "does not implement") {
			t.Errorf("said twice: %q", a.Reasoning)
		}
	}
}
