package ab_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/readbench/readbench/ab"
	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
)

// TestDocumentWithNoRoundKept: an experiment whose every run was unusable
// still writes a whole document in every format, leading with the answer
// that there is none and why; its bound fails (the default gate) and
// JUnit marks the question an error, never a green suite.
func TestDocumentWithNoRoundKept(t *testing.T) {
	bs, err := bounds.ParseBounds("read.p50=+10%")
	if err != nil {
		t.Fatal(err)
	}
	unusable := func(context.Context, ab.SideRun) (*results.Result, error) {
		r, err := results.Load("../results/testdata/result.json")
		if err != nil {
			t.Fatal(err)
		}
		r.Partial = false
		r.Totals.Scheduled, r.Lag.Count = 0, 0 // the generator sent no read
		return r, nil
	}
	p := ab.Design{Rounds: 2, MaxRounds: 2, Retries: 0, Policy: ab.DefaultPolicy(), Dir: t.TempDir(),
		Judging: ab.Judging{Bounds: bs, Gate: compare.Gate{FailOnInconclusive: true}}}
	o, err := ab.Run(context.Background(), p, unusable)
	if err != nil {
		t.Fatal(err)
	}
	c := o.Document()
	if c.Answer == nil || c.Answer.Answered || !strings.HasPrefix(c.Answer.Line, "the regression question was not answered: no round kept: new: the generator sent no read") {
		t.Fatalf("answer %+v", c.Answer)
	}
	if len(c.Bounds) != 1 || c.Bounds[0].Pass || !c.Failed() {
		t.Errorf("bounds %+v: want the bound failed (no answer, the default gate)", c.Bounds)
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"table":    func(b *bytes.Buffer) error { return report.WriteCompareTable(b, c) },
		"markdown": func(b *bytes.Buffer) error { return report.WriteCompareMarkdown(b, c) },
		"junit":    func(b *bytes.Buffer) error { return report.WriteCompareJUnit(b, c) },
		"html":     func(b *bytes.Buffer) error { return report.CompareHTML(b, c, o.Base, o.New) },
		"json": func(b *bytes.Buffer) error {
			j, err := json.Marshal(c)
			b.Write(j)
			return err
		},
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		out := b.String()
		if !strings.Contains(out, "not answered") || !strings.Contains(strings.ReplaceAll(out, "&#43;", "+"), "read.p50=+10%") {
			t.Errorf("%s: no answer or bound in:\n%s", name, out)
		}
		if name == "junit" && (!strings.Contains(out, `errors="1"`) || !strings.Contains(out, "<error ")) {
			t.Errorf("junit: the unanswered question is no error:\n%s", out)
		}
	}

	// With --fail-on-inconclusive=false the bound passes, loudly.
	p.Judging.Gate.FailOnInconclusive, p.Dir = false, t.TempDir()
	if o, err = ab.Run(context.Background(), p, unusable); err != nil {
		t.Fatal(err)
	}
	if c := o.Document(); c.Failed() || c.Answer.Answered || c.Bounds[0].Verdict != compare.VerdictInconclusive {
		t.Errorf("pass on inconclusive: failed %v, %+v", c.Failed(), c.Bounds)
	}
}
