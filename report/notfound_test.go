package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestReportsSayReadsNotFound: reads that named nothing the server has
// (not_found, or expected_error in a class that expects not_found) get the
// line telling a host to re-list, with their count and share, in the table
// and the HTML report; an expected error of another kind does not.
func TestReportsSayReadsNotFound(t *testing.T) {
	cases := []struct {
		name string
		edit func(r *results.Result)
		want string // "" when no line may say it
	}{
		{"expected not found", func(*results.Result) {}, "10 reads (2.4%) named nothing the server has; a host should re-list"},
		{"an expected error of another kind", func(r *results.Result) { r.Workload.Mix[2].Expect = "error" }, ""},
		{"not found in a class that expects nothing", func(r *results.Result) {
			r.Workload.Mix[2].Expect = "error"
			moveOutcome(r, "markdown", "ok", "not_found", 21)
		}, "21 reads (5.0%) named nothing the server has; a host should re-list"},
		{"both", func(r *results.Result) { moveOutcome(r, "markdown", "ok", "not_found", 32) },
			"42 reads (10.0%) named nothing the server has; a host should re-list"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := fixture(t, false)
			c.edit(r)
			var table, page bytes.Buffer
			if err := WriteTable(&table, r); err != nil {
				t.Fatal(err)
			}
			if err := WriteHTML(&page, []*results.Result{r}); err != nil {
				t.Fatal(err)
			}
			for name, out := range map[string]string{"table": table.String(), "html": page.String()} {
				switch {
				case c.want == "" && strings.Contains(out, "re-list"):
					t.Errorf("%s advises re-listing with no read not found", name)
				case c.want != "" && strings.Count(out, c.want) != 1:
					t.Errorf("%s does not say %q once:\n%s", name, c.want, out)
				}
			}
		})
	}
}

// moveOutcome moves n reads of class from one outcome to another, in the
// class and the totals, keeping the identity.
func moveOutcome(r *results.Result, class, from, to string, n int64) {
	for i := range r.Classes {
		if r.Classes[i].Class == class {
			r.Classes[i].Outcomes[from] -= n
			r.Classes[i].Outcomes[to] += n
		}
	}
	r.Totals.Outcomes[from] -= n
	r.Totals.Outcomes[to] += n
}
