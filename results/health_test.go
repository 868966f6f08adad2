package results

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// healthDoc is a result as HealthOf reads it: the docs-attachments limits
// (800ms deadline, 5s read timeout, max_in_flight 1000), asked turns/s
// for measured seconds, the outcomes of the reads and how the turns
// ended. Everything else is empty, as HealthOf must not need it.
type healthDoc struct {
	asked, measured float64
	outcomes        map[string]int64
	ends            TurnEnds
	partial         bool
}

func (d healthDoc) result() *Result {
	r := &Result{Partial: d.partial, Totals: Totals{Outcomes: map[string]int64{}, AskedRate: d.asked, MeasuredS: d.measured, TurnEnds: d.ends}}
	r.Workload.Turn.Deadline, r.Workload.Turn.ReadTimeout, r.Workload.Load.MaxInFlight = 800*time.Millisecond, 5*time.Second, 1000
	for k, v := range d.outcomes {
		r.Totals.Outcomes[k] = v
		r.Totals.Scheduled += v
	}
	e := d.ends
	r.Totals.Turns = e.Complete + e.Cut + e.Failed + e.Dropped
	r.Lag.Count = r.Totals.Scheduled - d.outcomes["dropped"] // every read sent has a lag: none reached late
	return r
}

// TestHealthOf is the table of the health at its edges, in both
// directions: what must not flatter an unhealthy run (overload with
// complete reads, failing reads with fast figures, most of a run failed)
// and what must not cry wolf over a healthy one (a few cut turns on a
// busy machine, exactly half, a generator that lagged).
func TestHealthOf(t *testing.T) {
	ends := func(complete, cut, failed, dropped int64) TurnEnds {
		return TurnEnds{Complete: complete, Cut: cut, Failed: failed, Dropped: dropped}
	}
	tests := []struct {
		name       string
		doc        healthDoc
		want       State
		mostFailed bool
		line       string // the line begins with it
		contains   []string
	}{
		{"every turn complete", healthDoc{150, 15, map[string]int64{"ok": 8550, "expected_error": 450}, ends(2250, 0, 0, 0), false},
			StateHealthy, false, "✓ healthy: 100.0% of turns complete; 600 reads/s served of 600 asked", nil},
		{"a busy machine's few cut turns stay healthy, unmarked", healthDoc{150, 15, map[string]int64{"ok": 8980, "cancelled": 20}, ends(2230, 20, 0, 0), false},
			StateHealthy, false, "✓ healthy: 99.1% of turns complete", nil},
		{"cut turns under the overload share: healthy, marked, the figure said", healthDoc{100, 20, map[string]int64{"ok": 7901, "cancelled": 99}, ends(1901, 99, 0, 0), false},
			StateHealthy, false, "! healthy: 95.0% of turns complete (99 cut or dropped, under 5%)", nil},
		{"cut turns at the overload share: overloaded", healthDoc{100, 20, map[string]int64{"ok": 7900, "cancelled": 100}, ends(1900, 100, 0, 0), false},
			StateOverloaded, false, "! overloaded: 5.0% of turns cut at the 800ms deadline; 395 reads/s served of 400 asked", nil},
		{"the issue's run: 99.8% of turns cut", healthDoc{150, 15, map[string]int64{"ok": 938, "expected_error": 463, "cancelled": 7599}, ends(4, 2246, 0, 0), false},
			StateOverloaded, true, "✗ overloaded: 99.8% of turns cut at the 800ms deadline; 93.4 reads/s served of 600 asked",
			[]string{"2,246 turns (99.8%) were cut at the 800ms deadline"}},
		{"exactly half the turns cut is not most", healthDoc{100, 20, map[string]int64{"ok": 7000, "cancelled": 1000}, ends(1000, 1000, 0, 0), false},
			StateOverloaded, false, "! overloaded: 50.0% of turns cut", nil},
		{"one more than half is most", healthDoc{100, 20, map[string]int64{"ok": 6999, "cancelled": 1001}, ends(999, 1001, 0, 0), false},
			StateOverloaded, true, "✗ overloaded: 50.0% of turns cut", nil},
		{"turns dropped at max_in_flight", healthDoc{100, 20, map[string]int64{"ok": 6400, "dropped": 1600}, ends(1600, 0, 0, 400), false},
			StateOverloaded, false, "! overloaded: 20.0% of turns dropped before they started; 320 reads/s served of 400 asked",
			[]string{"max_in_flight 1000"}},
		{"reads timed out without a deadline", healthDoc{100, 20, map[string]int64{"ok": 7200, "timeout": 800}, ends(1200, 0, 800, 0), false},
			StateOverloaded, false, "! overloaded: 10.0% of reads timed out at the 5.00s read timeout", nil},
		{"exactly half the reads not found is not most: healthy, marked", healthDoc{100, 20, map[string]int64{"ok": 4000, "not_found": 4000}, ends(2000, 0, 0, 0), false},
			StateHealthy, false, "! healthy: 100.0% of turns complete; 50.0% of reads sent failed, most of them not_found", nil},
		{"the README's workload against serve: failing, not_found explained", healthDoc{20, 10, map[string]int64{"expected_error": 37, "not_found": 763}, ends(200, 0, 0, 0), false},
			StateFailing, true, "✗ failing: 95.4% of reads sent failed, all not_found: the workload's URIs are not on this server", nil},
		{"a server that died: failing on transport, named", healthDoc{20, 2, map[string]int64{"ok": 15, "transport": 65}, ends(7, 0, 33, 0), false},
			StateFailing, true, "✗ failing: 81.2% of reads sent failed, all transport: the connection or the server process failed", nil},
		{"mixed errors name the most frequent", healthDoc{20, 2, map[string]int64{"ok": 20, "internal": 50, "rpc_error": 10}, ends(40, 0, 0, 0), false},
			StateFailing, true, "✗ failing: 75.0% of reads sent failed, most of them internal (62.5%): the server failed while reading", nil},
		{"no read succeeded: useless, the method named", healthDoc{20, 1, map[string]int64{"method_not_found": 40}, ends(20, 0, 0, 0), false},
			StateUseless, true, "✗ useless: no read succeeded: all 40 reads sent failed, most of them method_not_found (100.0%): the server does not implement resources/read", nil},
		{"zero reads", healthDoc{50, 0.01, map[string]int64{}, ends(0, 0, 0, 0), false},
			StateUseless, false, "✗ useless: no read was scheduled", nil},
		{"all dropped", healthDoc{100, 2, map[string]int64{"dropped": 800}, ends(0, 0, 0, 200), false},
			StateUseless, true, "✗ useless: no read was sent: all 800 scheduled reads were dropped", nil},
		{"an interrupted run's health is of what ran", healthDoc{150, 3, map[string]int64{"ok": 1800}, ends(450, 0, 0, 0), true},
			StateHealthy, false, "✓ healthy: 100.0% of turns complete; 600 reads/s served of 600 asked; partial (3.00s)",
			[]string{"the run was interrupted"}},
		// The generator scheduled 1,000 of 2,250 turns: the server did not
		// get the load, so its cut turns are not its overload (generator
		// wins over overloaded); most turns failed all the same (✗).
		{"a lagging generator is generator-bound, not the server's overload", healthDoc{150, 15, map[string]int64{"ok": 1600, "cancelled": 2400}, ends(400, 600, 0, 0), false},
			StateGeneratorBound, true, "✗ generator-bound: readbench could not keep its schedule",
			[]string{"scheduled only 1,000 of the 2250 turns asked", "cannot be charged to it", "600 turns (60.0%) were cut"}},
		{"errors win over a lagging generator: the answers are the server's", healthDoc{150, 15, map[string]int64{"ok": 1000, "internal": 3000}, ends(1000, 0, 0, 0), false},
			StateFailing, true, "✗ failing: 75.0% of reads sent failed, all internal", nil},
		{"closed model: served, no asked rate", healthDoc{0, 10, map[string]int64{"ok": 4000}, ends(1000, 0, 0, 0), false},
			StateHealthy, false, "✓ healthy: 100.0% of turns complete; 400 reads/s served", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := HealthOf(tt.doc.result())
			if h.Health != tt.want || h.MostFailed != tt.mostFailed || !strings.HasPrefix(h.Line, tt.line) {
				t.Errorf("got %s (most failed %v) %q\nwant %s (most failed %v) %q...", h.Health, h.MostFailed, h.Line, tt.want, tt.mostFailed, tt.line)
			}
			all := h.Line + "\n" + strings.Join(h.Reasons, "\n")
			for _, s := range tt.contains {
				if !strings.Contains(all, s) {
					t.Errorf("no %q in\n%s", s, all)
				}
			}
			if len(h.Reasons) == 0 {
				t.Errorf("no reasons for %q", h.Line)
			}
		})
	}
}

// TestHealthMarkAndClass: the mark is the line's first word, the class
// its colour on a page.
func TestHealthMarkAndClass(t *testing.T) {
	for _, c := range []struct{ line, mark, class string }{
		{"✓ healthy: x", "✓", "pass"}, {"✗ failing: x", "✗", "fail"}, {"! overloaded: x", "!", "warn"}, {"", "", "warn"},
	} {
		h := Health{Line: c.line}
		if h.Mark() != c.mark || h.Class() != c.class {
			t.Errorf("%q: mark %q class %q, want %q %q", c.line, h.Mark(), h.Class(), c.mark, c.class)
		}
	}
}

// TestHealthOnLoad: a result written before the verdict key gets its
// health computed when it is loaded, and saves back with it; a stored
// verdict is kept as it was written.
func TestHealthOnLoad(t *testing.T) {
	r := fixture(t, false)
	data, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(data), `"verdict"`, `"verdict_of_another_tool"`, 1) // the key absent
	got, err := Parse("old.json", []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if got.Health.Health != StateHealthy || got.Health.Line != r.Health.Line || got.Health.Line == "" {
		t.Errorf("loaded %+v, want the built %+v", got.Health, r.Health)
	}
	// A stored verdict is not taken on trust: the counts decide it.
	lied := strings.Replace(string(data), r.Health.Line, "✓ healthy: as written", 1)
	if got, err := Parse("lied.json", []byte(lied)); err != nil || got.Health.Line != r.Health.Line {
		t.Errorf("a stored verdict was taken on trust: %+v, %v; want the counts' %q", got.Health, err, r.Health.Line)
	}
}

// TestLoadDistrustsCounts: a result whose saved counts were tampered with
// (issue 47, item 19: scheduled 999999 with outcomes summing to 10, or a
// negative outcome) is not reported "identity ok" and "✓ healthy": the
// identity and the health are worked out again on load, and a negative
// count is refused, naming it.
func TestLoadDistrustsCounts(t *testing.T) {
	r := fixture(t, false)
	data, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	totals := doc["totals"].(map[string]any)
	totals["scheduled"] = 999999
	inflated, _ := json.Marshal(doc)
	got, err := Parse("inflated.json", inflated)
	if err != nil {
		t.Fatal(err)
	}
	if got.Totals.IdentityOK || got.Health.Health != StateUseless || !strings.Contains(got.Health.Line, "lost count of reads: 999,999 scheduled") {
		t.Errorf("scheduled 999999: identity_ok %v, verdict %q; want the identity broken and the run useless", got.Totals.IdentityOK, got.Health.Line)
	}
	totals["scheduled"] = r.Totals.Scheduled
	totals["outcomes"].(map[string]any)["ok"] = -5
	negative, _ := json.Marshal(doc)
	if _, err := Parse("negative.json", negative); err == nil || !strings.Contains(err.Error(), "totals.outcomes.ok is -5") {
		t.Errorf("ok -5: %v; want it refused, naming totals.outcomes.ok", err)
	}
}

// cutShard records turns of four reads, complete or with one read cut
// at the deadline, for a merge of shards whose health differs.
func cutShard(complete, cut int) [2]*stats.Phase {
	classes := []stats.ClassInfo{{Name: "markdown", MIME: "text/markdown"}, {Name: "screenshot", MIME: "image/png"}, {Name: "renamed-policy"}}
	rec := stats.NewRecorder(classes)
	for i := range complete + cut {
		rec.Schedule(4)
		end := stats.TurnComplete
		for k := range 4 {
			s := stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: 10 * time.Millisecond, Service: 10 * time.Millisecond,
				ByteCounts: stats.ByteCounts{WireBytes: 1400, DiskBytes: 1000}}
			if i >= complete && k == 0 {
				s = stats.ReadSample{Outcome: stats.Cancelled, Sent: true, Latency: 800 * time.Millisecond, LowerBound: true}
				end = stats.TurnCut
			}
			rec.Read(s)
		}
		rec.Turn(stats.TurnSample{End: end, Latency: 10 * time.Millisecond, Reads: 4})
	}
	return [2]*stats.Phase{stats.NewRecorder(classes).Phase(), rec.Phase()}
}

// TestMergedHealth: a merged run's health is the whole run's, from the
// summed counts, never a shard's: one shard with most of its turns cut
// and one with none are together overloaded, most of the run complete.
func TestMergedHealth(t *testing.T) {
	w := fixtureWorkload(t)
	a := buildShard(t, w, Segment{K: 1, N: 2}, cutShard(100, 0), 10)
	b := buildShard(t, w, Segment{K: 2, N: 2}, cutShard(30, 70), 10)
	if a.Health.Health != StateHealthy || b.Health.Health != StateOverloaded || !b.Health.MostFailed {
		t.Fatalf("shards: %+v; %+v", a.Health, b.Health)
	}
	got, err := Merge([]MergeInput{{Name: "a", Result: a}, {Name: "b", Result: b}})
	if err != nil {
		t.Fatal(err)
	}
	want := "! overloaded: 35.0% of turns cut at the 800ms deadline; 73.0 reads/s served of 80.0 asked"
	if got.Health.Health != StateOverloaded || got.Health.MostFailed || got.Health.Line != want {
		t.Errorf("merged: %+v\nwant %q", got.Health, want)
	}
}
