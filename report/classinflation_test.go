package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestClassInflationDash: the bytes table of a class that decoded nothing
// prints its inflation "-", in the table, the markdown and the HTML, and
// the classes that decoded bytes print theirs.
func TestClassInflationDash(t *testing.T) {
	r := fixture(t, false)
	if c := r.Classes[2]; c.Class != "renamed-policy" || c.DiskBytes != 0 || c.Inflation != nil {
		t.Fatalf("the fixture's class that decodes nothing is %+v", c)
	}
	var table, md, page bytes.Buffer
	for _, err := range []error{WriteFullTable(&table, r), WriteMarkdown(&md, r), WriteHTML(&page, []*results.Result{r})} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// row is the class's row of the bytes table: its cells, the fourth
	// the error share.
	row := func(out, class string) []string {
		for _, l := range strings.Split(out, "\n") {
			var f []string
			for _, c := range strings.Split(l, "|") {
				if c = strings.TrimSpace(c); c != "" {
					f = append(f, c)
				}
			}
			if len(f) == len(bytesHeader) && f[0] == class && strings.HasSuffix(f[3], "%") {
				return f
			}
		}
		return nil
	}
	for name, out := range map[string]string{"table": table.String(), "markdown": md.String()} {
		if f := row(out, "renamed-policy"); f == nil || f[len(f)-1] != "-" {
			t.Errorf("%s: the class that decoded nothing: %q, want inflation -", name, f)
		}
		if f := row(out, "markdown"); f == nil || !strings.HasPrefix(f[len(f)-1], "1.40") {
			t.Errorf("%s: the markdown class: %q, want its inflation", name, f)
		}
	}
	if !strings.Contains(page.String(), "renamed-policy (-)") {
		t.Error("html: the inflation chart does not say - for the class that decoded nothing")
	}
}
