package runner

import (
	"bytes"
	"encoding/xml"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
)

// view is one way a result is shown, and the lines a reader (or a CI
// log's head -1 and tail -1) takes its verdict from.
type view struct {
	name        string
	first, last string
}

// viewsOf renders r in every format a run or readbench report prints and
// returns each view's first and last verdict lines: the terminal report
// (brief and --full), markdown, the HTML page's title and the first line
// of its banner, and JUnit's suite (its "verdict" property, first and
// last alike), with the number of failures the suite counts.
func viewsOf(t *testing.T, r *results.Result) ([]view, int) {
	t.Helper()
	var out []view
	lines := func(name string, write func(*bytes.Buffer) error) {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		ls := strings.Split(strings.TrimSpace(b.String()), "\n")
		out = append(out, view{name, ls[0], ls[len(ls)-1]})
	}
	lines("table", func(b *bytes.Buffer) error { return report.WriteTable(b, r) })
	lines("table --full", func(b *bytes.Buffer) error { return report.WriteFullTable(b, r) })
	lines("markdown", func(b *bytes.Buffer) error { return report.WriteMarkdown(b, r) })
	var page bytes.Buffer
	if err := report.WriteHTML(&page, []*results.Result{r}); err != nil {
		t.Fatal(err)
	}
	title := regexp.MustCompile(`<title>(.*?)</title>`).FindStringSubmatch(page.String())
	head := page.String()[strings.Index(page.String(), `<header class="headline"`):]
	banner := regexp.MustCompile(`(?s)<p class="verdict[^>]*>(.*?)</p>`).FindStringSubmatch(head)
	if title == nil || banner == nil {
		t.Fatalf("the page has no title or no verdict in its banner:\n%.2000s", page.String())
	}
	tag := regexp.MustCompile(`<[^>]*>`)
	out = append(out, view{"html title / banner", html.UnescapeString(title[1]), html.UnescapeString(tag.ReplaceAllString(banner[1], ""))})
	var junit bytes.Buffer
	if err := report.WriteJUnit(&junit, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Failures   int `xml:"failures,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("junit: %v, %d suites:\n%s", err, len(doc.Suites), junit.String())
	}
	verdict := ""
	if ps := doc.Suites[0].Properties; len(ps) > 0 && ps[0].Name == "verdict" {
		verdict = ps[0].Value
	}
	return append(out, view{"junit suite", verdict, verdict}), doc.Suites[0].Failures
}

// TestEveryViewSaysTheExit holds every view of a result to the exit status
// it was judged to, for every ending of the table (endings): the first and
// the last line of the terminal report (brief and --full) and of the
// markdown one, the HTML page's title and banner, and JUnit's suite open
// with ✗ exactly when the exit is not 0, and a suite counts failures
// exactly then; a failed gate never opens or closes with "✓ healthy". A
// run's and a merge's result read back from its file (readbench report)
// says the same (but for a misused bound: the command line's, not the
// file's).
func TestEveryViewSaysTheExit(t *testing.T) {
	for _, tt := range endings(t) {
		t.Run(tt.name, func(t *testing.T) {
			done := endOf(t, tt.command, tt.free, tt.s, tt.ts, t.TempDir())
			failed := done.Judgement.Exit != results.Passed
			check := func(from string, r *results.Result) {
				views, failures := viewsOf(t, r)
				for _, v := range views {
					for _, l := range []string{v.first, v.last} {
						l = strings.TrimPrefix(l, "**")
						if strings.HasPrefix(l, "✗") != failed || (!failed && !strings.HasPrefix(l, "✓") && !strings.HasPrefix(l, "!")) {
							t.Errorf("%s, %s: %q opens or ends it, but the exit is %v %q", from, v.name, l, done.Judgement.Exit, done.Judgement.Reason)
						}
					}
				}
				if (failures > 0) != failed {
					t.Errorf("%s: the JUnit suite counts %d failures, but the exit is %v %q", from, failures, done.Judgement.Exit, done.Judgement.Reason)
				}
			}
			check("the run's report", done.Result)
			// Read back, a result judged Misused is a fine one: the misuse
			// was the command line's (a bound on what the run lacks), which
			// the file does not keep.
			if (tt.command == "run" || tt.command == "merge") && tt.want != results.Misused {
				back, err := results.Load(done.Path)
				if err != nil {
					t.Fatal(err)
				}
				check("readbench report", back)
			}
		})
	}
}
