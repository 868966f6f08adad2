package report

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
)

// TestReportsSayMisusedCode: reads a server answered -32601 (Method not
// found) worded as a missing resource while it served other reads
// (totals.misused_method_not_found, fastmcp 4.20.16) are named once in
// every report as the server's misuse of the code, beside the re-list line
// they count in, and never as a server without resources/read.
func TestReportsSayMisusedCode(t *testing.T) {
	const want = "the server answers a missing resource with -32601 (Method not found); a client would conclude resources/read is absent: 10 reads (2.4%) answered so"
	for _, c := range []struct {
		name    string
		misused int64
	}{{"misused", 10}, {"none", 0}} {
		t.Run(c.name, func(t *testing.T) {
			r := fixture(t, false) // its class "markdown"… expects not_found: 10 reads
			r.Totals.MisusedMethodNotFound = c.misused
			outs := map[string]string{}
			for name, write := range map[string]func(io.Writer) error{
				"table":      func(w io.Writer) error { return WriteTable(w, r) },
				"full table": func(w io.Writer) error { return WriteFullTable(w, r) },
				"markdown":   func(w io.Writer) error { return WriteMarkdown(w, r) },
				"html":       func(w io.Writer) error { return WriteHTML(w, []*results.Result{r}) },
			} {
				var b bytes.Buffer
				if err := write(&b); err != nil {
					t.Fatal(err)
				}
				outs[name] = strings.Join(strings.Fields(b.String()), " ") // the table wraps its lines
			}
			for name, out := range outs {
				n := strings.Count(out, want)
				switch {
				case c.misused > 0 && n != 1:
					t.Errorf("%s says %d times that the server misuses -32601, want once:\n%s", name, n, out)
				case c.misused == 0 && strings.Contains(out, "-32601 (Method not found); a client"):
					t.Errorf("%s names a misuse no read showed", name)
				}
				if strings.Contains(out, "does not implement resources/read") {
					t.Errorf("%s says the server lacks resources/read", name)
				}
			}
		})
	}
}
