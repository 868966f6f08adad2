package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestReportsSayUnmetExpect: a class whose expect the answers did not
// meet is said in every format — its health line (marked, never "✓"),
// a line of the brief and the full table, the markdown, the HTML page
// and the JSON's verdict and classes[].expect_unmet (issue 47, item 3:
// 15 of 15 ok answers to an expect: not_found class read "✓ healthy",
// with nothing in the text, --full or the JSON). A class whose expect
// was met is not mentioned.
func TestReportsSayUnmetExpect(t *testing.T) {
	const unmet = "class screenshot expects not_found, yet 100 of its 100 answers were not (all ok)"
	for _, c := range []struct {
		name   string
		expect string // the screenshots' expect, all answered with documents
		want   bool
	}{
		{"unmet", "not_found", true},
		{"none", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := fixture(t, false)
			r.Workload.Mix[1].Expect = c.expect
			data, err := r.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if r, err = results.Parse("r.json", data); err != nil { // as report does: the verdict worked out on load
				t.Fatal(err)
			}
			outs := map[string]*bytes.Buffer{}
			for name, write := range map[string]func(*bytes.Buffer) error{
				"brief":    func(b *bytes.Buffer) error { return WriteTable(b, r) },
				"full":     func(b *bytes.Buffer) error { return WriteFullTable(b, r) },
				"markdown": func(b *bytes.Buffer) error { return WriteMarkdown(b, r) },
				"html":     func(b *bytes.Buffer) error { return WriteHTML(b, []*results.Result{r}) },
				"json":     func(b *bytes.Buffer) error { return WriteJSON(b, []*results.Result{r}) },
			} {
				outs[name] = &bytes.Buffer{}
				if err := write(outs[name]); err != nil {
					t.Fatal(err)
				}
			}
			for name, b := range outs {
				// the text formats wrap their lines, markdown escapes: compare words
				out := strings.Join(strings.Fields(strings.ReplaceAll(b.String(), `\`, "")), " ")
				if got := strings.Contains(out, unmet); got != c.want {
					t.Errorf("%s says the unmet expect: %v, want %v:\n%s", name, got, c.want, b)
				}
			}
			first, _, _ := strings.Cut(outs["brief"].String(), "\n")
			if c.want && strings.HasPrefix(first, "✓") {
				t.Errorf("the brief report opens %q: an unmet expect is never ✓", first)
			}
			if c.want && !strings.Contains(outs["json"].String(), `"expect_unmet": 100`) {
				t.Errorf("the JSON has no expect_unmet of 100:\n%s", outs["json"])
			}
			if !c.want && strings.Contains(outs["full"].String(), "expect ") && strings.Contains(outs["full"].String(), "answers were not") {
				t.Errorf("the full report mentions an expect met:\n%s", outs["full"])
			}
		})
	}
}
