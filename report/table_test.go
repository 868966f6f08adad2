package report

import (
	"bytes"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/golden"
	"github.com/readbench/readbench/results"
)

// TestTableLeadsWithTheVerdict: the thresholds' verdict and each
// threshold, ✓ or ✗ with PASS or FAIL, come before any detail, as k6's
// summary does, on the report itself (stdout), not only in the exit
// message.
func TestTableLeadsWithTheVerdict(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTable(&buf, withThresholds(t)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	verdict := strings.Index(out, "✗ 1 of 2 thresholds broken")
	fail := strings.Index(out, "✗ FAIL  turn.p99<800ms")
	pass := strings.Index(out, "✓ PASS  errors<1%")
	detail := strings.Index(out, "\ntarget ")
	if verdict < 0 || fail < 0 || pass < 0 || detail < 0 || !(verdict < fail && fail < detail && pass < detail) {
		t.Errorf("the verdict (at %d) and thresholds (%d, %d) do not lead the detail (%d):\n%s", verdict, fail, pass, detail, out)
	}
	if strings.Count(out, "turn.p99<800ms") != 1 {
		t.Error("the thresholds are listed twice")
	}
}

// TestWriteTableGolden: the brief report (X.golden) and the full one
// (X.full.golden) of each fixture, each within 100 columns, the brief one
// within its budget of 44 lines, both opening and closing with the
// verdict that decided the exit (results.Judgement.Line).
func TestWriteTableGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		r    func(testing.TB) *results.Result
		full bool
	}{{"report.golden", func(t testing.TB) *results.Result { return withSlowReads(fixture(t, false)) }, false},
		{"troubled.golden", func(t testing.TB) *results.Result { return withSlowReads(fixture(t, true)) }, false},
		{"thresholds.golden", withThresholds, false}, // a result that kept no reads by name
		{"report.full.golden", func(t testing.TB) *results.Result { return withSlowReads(fixture(t, false)) }, true},
		{"troubled.full.golden", func(t testing.TB) *results.Result { return withSlowReads(fixture(t, true)) }, true},
		{"thresholds.full.golden", withThresholds, true}} {
		t.Run(c.name, func(t *testing.T) {
			r := c.r(t)
			write := WriteTable
			if c.full {
				write = WriteFullTable
			}
			var buf bytes.Buffer
			if err := write(&buf, r); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, c.name, "the report", buf.Bytes())
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if !c.full && len(lines) > briefLines {
				t.Errorf("the brief report is %d lines, want %d at most", len(lines), briefLines)
			}
			// The verdict that decided the exit opens the report, the
			// health and the thresholds' verdict under it when they say
			// something else, and it alone closes it.
			open := openingLines(r)
			if !strings.HasPrefix(open[0], lines[0]) || lines[len(lines)-1] != closingLine(r, DefaultWidth) || !strings.HasPrefix(open[0], closingLine(r, DefaultWidth)[:3]) {
				t.Errorf("first line %q, last %q: want the verdict %q at both ends", lines[0], lines[len(lines)-1], open[0])
			}
			for i, l := range lines {
				if n := utf8.RuneCountInString(l); n > 100 {
					t.Errorf("line %d is %d columns wide: %q", i+1, n, l)
				}
				if strings.HasSuffix(l, " ") || strings.Contains(l, "\x1b") {
					t.Errorf("line %d has trailing blanks or an escape sequence: %q", i+1, l)
				}
			}
			// readbench report: the saved file renders the same report.
			path := filepath.Join(t.TempDir(), "r.json")
			if err := r.SaveFile(path); err != nil {
				t.Fatal(err)
			}
			back, err := results.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if err := write(&again, back); err != nil {
				t.Fatal(err)
			}
			if again.String() != buf.String() {
				t.Error("the report of the loaded result differs from the report of the built one")
			}
		})
	}
}

func TestWriteTableNeutralisesControlCharacters(t *testing.T) {
	r := fixture(t, false)
	r.Classes[0].Class = "evil\x1b[2J\nclass"
	r.Workload.Name = "name\x07"
	r.Totals.Outcomes["from\x1bfuture"] = 1
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.ContainsAny(s, "\x1b\x07") || !strings.Contains(s, "evil?[2J?class") {
		t.Errorf("control characters reach the terminal:\n%s", s)
	}
}

// failingWriter fails every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestWriteTableReportsWriteErrors(t *testing.T) {
	if err := WriteTable(failingWriter{}, fixture(t, false)); err == nil {
		t.Error("a failed write must be reported")
	}
}

// TestTableSaysGeneratorBound: a generator-bound result says so at the top
// of the table and the markdown, with the lag figures.
func TestTableSaysGeneratorBound(t *testing.T) {
	r := fixture(t, false)
	r.GeneratorBound, r.Lag.P99Ms, r.Lag.MaxMs, r.LagBoundMs = true, 12.5, 40, 2
	var table, md bytes.Buffer
	if err := WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"table": table.String(), "markdown": md.String()} {
		if !strings.Contains(out, "GENERATOR-BOUND: scheduling lag p99 12.5ms") {
			t.Errorf("%s does not say the run was generator-bound:\n%s", name, out)
		}
	}
	r.GeneratorBound = false
	table.Reset()
	if err := WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), "GENERATOR-BOUND") {
		t.Error("a run that was not generator-bound says it was")
	}
}

// TestReportsSayMethodNotFound: reads answered -32601 are one line saying
// the server lacks resources/read, in the table, markdown and HTML, and
// never the not-found advice to re-list.
func TestReportsSayMethodNotFound(t *testing.T) {
	r := fixture(t, false)
	for k := range r.Totals.Outcomes {
		r.Totals.Outcomes[k] = 0
	}
	r.Totals.Outcomes["method_not_found"] = r.Totals.Scheduled
	for i := range r.Classes {
		for k := range r.Classes[i].Outcomes {
			r.Classes[i].Outcomes[k] = 0
		}
	}
	var table, md, page bytes.Buffer
	for _, err := range []error{WriteTable(&table, r), WriteMarkdown(&md, r), WriteHTML(&page, []*results.Result{r})} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The verdict that decided the exit, at both ends of every view, may
	// say it too (the run is useless); the body says it once.
	verdict := regexp.MustCompile(`(?s)\A.*?\n(readbench|## )|\n[^\n]*\n\z|<title>.*?</title>|<p class="verdict ending.*?</p>`)
	for name, out := range map[string]string{"table": table.String(), "markdown": md.String(), "html": page.String()} {
		out = verdict.ReplaceAllString(out, "")
		if n := strings.Count(out, "the server does not implement resources/read"); n != 1 {
			t.Errorf("%s says %d times that the server lacks resources/read, want once:\n%s", name, n, out)
		}
		if strings.Contains(out, "re-list") {
			t.Errorf("%s advises re-listing for a missing method", name)
		}
	}
}
