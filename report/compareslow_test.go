package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/compare"
)

// TestCompareViewsNameSlowestReads: every compare view lists each side's
// slowest reads with their trace ids, within the table's 120 columns,
// the page linking them through the trace URL, markup in a URI escaped;
// results that kept no reads by name add nothing.
func TestCompareViewsNameSlowestReads(t *testing.T) {
	u, err := ParseTraceURL("https://grafana.example/explore?traceId={trace_id}")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d runs a side", n), func(t *testing.T) {
			base, nw, _ := compareRunsFixture(t, n, 1.3)
			for i := range nw {
				withSlowReads(base[i].Result)
				withSlowReads(nw[i].Result)
				nw[i].Result.Classes[1].SlowReads.Slowest[0].URI = "docs://" + strings.Repeat("deep/", 40) + "<script>x</script>.png"
			}
			c, err := compare.Runs(base, nw, compare.RunsOptions{NoiseFloor: -1})
			if err != nil {
				t.Fatal(err)
			}
			out := renderCompare(t, c, base, nw)
			table := out["table"]
			if got := strings.Count(table, " trace 4bf92f"); got != 2*compare.SideSlowest {
				t.Errorf("the table names %d slowest reads, want %d a side:\n%s", got, compare.SideSlowest, table)
			}
			for i, l := range strings.Split(table, "\n") {
				if w := utf8.RuneCountInString(l); w > compareWidth {
					t.Errorf("line %d is %d columns: %q", i+1, w, l)
				}
			}
			var narrow strings.Builder // an 80-column terminal: the run and the URI move to a line of their own
			if err := (Options{Width: 80}).WriteCompareTable(&narrow, c); err != nil {
				t.Fatal(err)
			}
			for i, l := range strings.Split(narrow.String(), "\n") {
				if w := utf8.RuneCountInString(l); w > 80 {
					t.Errorf("at 80 columns, line %d is %d columns: %q", i+1, w, l)
				}
			}
			if !strings.Contains(table, "\nbase       cut at 100ms screenshot timeout trace 4bf92f3577b34da6a3ce929d0e0e0010 ") {
				t.Errorf("the base's slowest read is not first:\n%s", table)
			}
			if md := out["markdown"]; !strings.Contains(md, "### Slowest reads") || strings.Contains(md, "<script>") ||
				strings.Count(md, "| 4bf92f3577b34da6a3ce929d0e0e") != 2*compare.SideSlowest {
				t.Errorf("markdown lacks the slowest reads or lets markup through:\n%s", md)
			}
			var page strings.Builder
			if err := (Options{TraceURL: u}).CompareHTML(&page, c, base, nw); err != nil {
				t.Fatal(err)
			}
			sec := sectionText(t, page.String(), "slowest")
			if strings.Count(sec, `<a href="https://grafana.example/explore?traceId=4bf92f`) != 2*compare.SideSlowest || strings.Contains(sec, "<script>") {
				t.Errorf("the page's slowest reads are not linked, or not escaped:\n%s", sec)
			}
		})
	}
	var old strings.Builder
	c, err := compare.Pair(fixture(t, false), fixture(t, false), compare.PairOptions{BaseLabel: "a", NewLabel: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCompareTable(&old, c); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(old.String(), "slowest") {
		t.Errorf("results that kept no reads by name list some:\n%s", old.String())
	}
}
