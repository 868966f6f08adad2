package results

import (
	"fmt"
	"sort"
	"strings"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
)

// A class's expect (docs/workload.md) says what a correct answer to its
// reads is: a renamed document's not_found, say. A read the server
// answered otherwise did not meet it, and the run must say so: a class
// whose expect: not_found is answered with documents measures documents,
// not the missing ones its author meant (issue 47, item 3: 15 of 15 ok
// answers read "✓ healthy" with nothing said). Unmet answers weigh in the
// health as unexpected errors do (health.go): the expectation is the
// workload's own word for a wrong answer.

// unmetClass is what one class's expect came to: answered is the reads
// the server answered, met those that met the expectation, unmet the
// others (ok among them), and top the outcome most of them had.
type unmetClass struct {
	class, expect string
	answered, met int64
	unmet, ok     int64
	top           stats.Outcome
	topN          int64
	neverMet      bool
}

// notAnAnswer says whether o is a read the server did not answer: cut by
// the timeout or the deadline, dropped by readbench, or lost with its
// connection. Such a read says nothing of the expectation either way.
func notAnAnswer(o stats.Outcome) bool {
	return o == stats.Timeout || o == stats.Cancelled || o == stats.Dropped || o == stats.Transport
}

// expectUnmet is, of a class's reads (outcomes) whose class expects
// expect, those the server answered with something else: every answered
// outcome but expected_error ("" and "ok" expect nothing: 0).
func expectUnmet(outcomes map[string]int64, expect string) int64 {
	if expect == "" || expect == stats.OK.String() {
		return 0
	}
	var n int64
	for o := stats.Outcome(0); o < stats.NumOutcomes; o++ {
		if o != stats.ExpectedError && !notAnAnswer(o) {
			n += outcomes[o.String()]
		}
	}
	return n
}

// expectOf maps each class of r's workload to its expect.
func expectOf(r *Result) map[string]string {
	out := make(map[string]string, len(r.Workload.Mix))
	for _, m := range r.Workload.Mix {
		out[m.Name] = m.Expect
	}
	return out
}

// setExpectUnmet sets each class's expect_unmet from its outcomes and the
// workload's expect: worked out when the result is built and again when
// it is loaded, never taken on trust.
func setExpectUnmet(r *Result) {
	expect := expectOf(r)
	for i := range r.Classes {
		r.Classes[i].ExpectUnmet = expectUnmet(r.Classes[i].Outcomes, expect[r.Classes[i].Class])
	}
}

// unmetClasses are the classes of r whose expectation some answer did not
// meet, the most unmet first.
func unmetClasses(r *Result) []unmetClass {
	expect := expectOf(r)
	var out []unmetClass
	for _, c := range r.Classes {
		e := expect[c.Class]
		u := unmetClass{class: c.Class, expect: e, unmet: expectUnmet(c.Outcomes, e)}
		if u.unmet == 0 {
			continue
		}
		u.met, u.ok = c.Outcomes[stats.ExpectedError.String()], c.Outcomes[stats.OK.String()]
		u.answered = u.met + u.unmet
		for o := stats.Outcome(0); o < stats.NumOutcomes; o++ {
			if n := c.Outcomes[o.String()]; o != stats.ExpectedError && !notAnAnswer(o) && n > u.topN {
				u.top, u.topN = o, n
			}
		}
		u.neverMet = u.met == 0
		out = append(out, u)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].unmet > out[j].unmet })
	return out
}

// text is the sentence of one class's unmet expectation: "class
// renamed-policy expects not_found, yet 15 of its 15 answers were not
// (most of them ok): it measures what its author did not mean".
func (u unmetClass) text() string {
	most := "all " + u.top.String()
	if u.topN < u.unmet {
		most = "most of them " + u.top.String()
	}
	s := fmt.Sprintf("class %s expects %s, yet %s of its %s answers were not (%s)",
		u.class, u.expect, numfmt.Count(u.unmet), numfmt.Count(u.answered), most)
	if u.neverMet {
		s += ": the expectation was never met, so the class does not measure what the workload says " +
			"(a document still served where a missing one was expected?)"
	}
	return s
}

// unmetText is the health line's part on unmet expectations: the most
// unmet class's sentence, and how many more there are ("" when none).
func unmetText(us []unmetClass) string {
	if len(us) == 0 {
		return ""
	}
	s := us[0].text()
	if len(us) > 1 {
		s += fmt.Sprintf(" (and %d more classes with an unmet expect)", len(us)-1)
	}
	return s
}

// unmetReasons are the health's reasons on unmet expectations: one per
// class, at most three, then how many more.
func unmetReasons(us []unmetClass) []string {
	var out []string
	for i, u := range us {
		if i == 3 {
			out = append(out, fmt.Sprintf("%d more classes have an unmet expect (classes[].expect_unmet)", len(us)-i))
			break
		}
		out = append(out, u.text())
	}
	return out
}

// unmetSummary counts, over us, the ok answers to classes that expected
// an error (the unmet answers the health does not already count as
// unexpected errors) and says whether any class's expectation was never
// met.
func unmetSummary(us []unmetClass) (ok int64, neverMet bool) {
	for _, u := range us {
		ok += u.ok
		neverMet = neverMet || u.neverMet
	}
	return ok, neverMet
}

// ExpectNote is the report's line on unmet expectations (report's
// "expect" field; "" when every class with an expect had it met): what
// a reader acts on, the classes whose expect the answers contradicted.
func ExpectNote(r *Result) string {
	us := unmetClasses(r)
	if len(us) == 0 {
		return ""
	}
	parts := make([]string, 0, len(us))
	for _, u := range us {
		parts = append(parts, u.text())
	}
	return strings.Join(parts, "; ")
}
