package results

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/workload"
)

// expectDoc is a result with classes: each class's expect and outcomes;
// every turn complete unless the reads were cut, asked at 10 turns/s of
// one read for the reads' count / 10 seconds.
type expectDoc []struct {
	name, expect string
	outcomes     map[string]int64
}

func (d expectDoc) result() *Result {
	r := &Result{Totals: Totals{Outcomes: map[string]int64{}}}
	r.Workload.Turn.Deadline, r.Workload.Turn.ReadTimeout, r.Workload.Load.MaxInFlight = 800*time.Millisecond, 5*time.Second, 1000
	for _, c := range d {
		r.Workload.Mix = append(r.Workload.Mix, workload.Class{Name: c.name, Weight: 1, Expect: c.expect})
		cl := Class{Class: c.name, Outcomes: map[string]int64{}}
		for k, v := range c.outcomes {
			cl.Outcomes[k] = v
			cl.Reads += v
			r.Totals.Outcomes[k] += v
			r.Totals.Scheduled += v
		}
		r.Classes = append(r.Classes, cl)
	}
	t := &r.Totals
	t.Turns, t.AskedRate, t.MeasuredS = t.Scheduled, 10, float64(t.Scheduled)/10
	cut := t.Outcomes["cancelled"] + t.Outcomes["timeout"]
	t.TurnEnds = TurnEnds{Complete: t.Turns - cut, Cut: t.Outcomes["cancelled"], Failed: t.Outcomes["timeout"]}
	r.Lag.Count = t.Scheduled
	return r
}

// TestHealthSaysUnmetExpect: a class's expect that the answers did not
// meet is said in the health (issue 47, item 3: 15 of 15 ok answers to a
// class with expect: not_found read "✓ healthy", nothing said anywhere).
// An ok answer where an error was expected weighs as an unexpected error
// does: marked from 1% of the reads sent, failing when most; a class
// whose expectation no answer met is marked whatever its share. Nor does
// it cry wolf: reads cut by the deadline or the timeout (a busy machine)
// answered nothing and meet or break no expectation, and a met expect is
// never mentioned.
func TestHealthSaysUnmetExpect(t *testing.T) {
	type cls = struct {
		name, expect string
		outcomes     map[string]int64
	}
	for _, c := range []struct {
		name       string
		doc        expectDoc
		want       State
		mostFailed bool
		line       string   // the line begins with it
		contains   []string // in the line
		reasons    []string // in the reasons
		unmet      []int64  // expect_unmet per class
	}{
		{"the issue's run: 15 of 15 ok where not_found was expected",
			expectDoc{cls{"dropped-table", "not_found", map[string]int64{"ok": 15}}},
			StateFailing, true, "✗ failing: 100.0% of reads sent were answered other than their class expects",
			[]string{"class dropped-table expects not_found, yet 15 of its 15 answers were not (all ok): the expectation was never met"},
			[]string{"class dropped-table expects not_found, yet 15 of its 15 answers were not (all ok)"}, []int64{15}},
		{"a class of the run never met: marked, said in the line",
			expectDoc{cls{"doc", "", map[string]int64{"ok": 285}}, cls{"renamed", "not_found", map[string]int64{"ok": 15}}},
			StateHealthy, false, "! healthy: 100.0% of turns complete",
			[]string{"class renamed expects not_found, yet 15 of its 15 answers were not (all ok): the expectation was never met"},
			[]string{"class renamed expects not_found"}, []int64{0, 15}},
		{"never met at a tiny share: marked all the same",
			expectDoc{cls{"doc", "", map[string]int64{"ok": 998}}, cls{"renamed", "not_found", map[string]int64{"ok": 2}}},
			StateHealthy, false, "! healthy", []string{"class renamed expects not_found, yet 2 of its 2 answers were not"},
			[]string{"class renamed expects not_found"}, []int64{0, 2}},
		{"met but for a few: a reason, no mark",
			expectDoc{cls{"doc", "", map[string]int64{"ok": 900}}, cls{"renamed", "not_found", map[string]int64{"expected_error": 99, "ok": 1}}},
			StateHealthy, false, "✓ healthy", nil,
			[]string{"class renamed expects not_found, yet 1 of its 100 answers were not (all ok)"}, []int64{0, 1}},
		{"met: nothing said",
			expectDoc{cls{"doc", "", map[string]int64{"ok": 285}}, cls{"renamed", "not_found", map[string]int64{"expected_error": 15}}},
			StateHealthy, false, "✓ healthy", nil, nil, []int64{0, 0}},
		{"cut by a busy machine's deadline or timeout: no answer, no unmet expect",
			expectDoc{cls{"doc", "", map[string]int64{"ok": 285}}, cls{"renamed", "not_found", map[string]int64{"expected_error": 10, "cancelled": 1, "timeout": 1}}},
			StateHealthy, false, "✓ healthy", nil, nil, []int64{0, 0}},
		{"expect: error met by a missing method: an unexpected error, counted once",
			expectDoc{cls{"doc", "", map[string]int64{"ok": 60}}, cls{"broken", "error", map[string]int64{"method_not_found": 40}}},
			StateHealthy, false, "! healthy: 100.0% of turns complete; 40.0% of reads sent failed, most of them method_not_found",
			[]string{"class broken expects error, yet 40 of its 40 answers were not (all method_not_found)"},
			[]string{"40 of 100 reads sent (40.0%) answered an unexpected error", "class broken expects error"}, []int64{0, 40}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.doc.result()
			setExpectUnmet(r)
			h := HealthOf(r)
			if h.Health != c.want || h.MostFailed != c.mostFailed || !strings.HasPrefix(h.Line, c.line) {
				t.Errorf("%s (most failed %v) %q; want %s (most failed %v), line beginning %q", h.Health, h.MostFailed, h.Line, c.want, c.mostFailed, c.line)
			}
			for _, s := range c.contains {
				if !strings.Contains(h.Line, s) {
					t.Errorf("line %q lacks %q", h.Line, s)
				}
			}
			reasons := strings.Join(h.Reasons, "\n")
			for _, s := range c.reasons {
				if !strings.Contains(reasons, s) {
					t.Errorf("reasons lack %q:\n%s", s, reasons)
				}
			}
			if len(c.reasons) == 0 && (strings.Contains(reasons, "expects") || strings.Contains(h.Line, "expects") || ExpectNote(r) != "") {
				t.Errorf("an expect met, or not put to the test, is said to be unmet: %q\n%s", h.Line, reasons)
			}
			for i, want := range c.unmet {
				if got := r.Classes[i].ExpectUnmet; got != want {
					t.Errorf("class %s: expect_unmet %d, want %d", r.Classes[i].Class, got, want)
				}
			}
		})
	}
}

// TestLoadWorksOutExpectUnmet: a saved result's expect_unmet is worked
// out again from its outcomes and its workload's expect when it is
// loaded (a file written before the key, or edited), and its verdict
// says the unmet expect: a report of an old result is not "✓ healthy"
// against its counts.
func TestLoadWorksOutExpectUnmet(t *testing.T) {
	r := fixture(t, false)
	r.Workload.Mix[1].Expect = "not_found" // the screenshots, all answered with documents
	data, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse("r.json", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Classes {
		want := map[string]int64{"screenshot": c.Outcomes["ok"]}[c.Class]
		if c.ExpectUnmet != want {
			t.Errorf("class %s: expect_unmet %d, want %d", c.Class, c.ExpectUnmet, want)
		}
	}
	if !strings.Contains(got.Health.Line, "class screenshot expects not_found") || got.Health.Mark() == "✓" {
		t.Errorf("the loaded verdict does not say the unmet expect: %q", got.Health.Line)
	}
}
