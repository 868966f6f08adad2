package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// withSlowReads gives r's first two classes the reads a run keeps by name,
// as the driver fills them: markdown's slowest (none broke a bound, one
// not sampled), screenshot's slowest and the timeouts that broke a bound
// (cut at the read timeout), more of them seen than kept.
func withSlowReads(r *results.Result) *results.Result {
	at := func(ms int) time.Time { return r.Started.Add(2*time.Second + time.Duration(ms)*time.Millisecond).UTC() }
	id := func(n int) string { return fmt.Sprintf("4bf92f3577b34da6a3ce929d0e0e%04x", n) }
	span := func(n int) string { return fmt.Sprintf("00f067aa0ba9%04x", n) }
	md := &stats.SlowReads{}
	for i := range 4 {
		md.Slowest = append(md.Slowest, stats.SlowRead{TraceID: id(i), SpanID: span(i), URI: fmt.Sprintf("docs://attachments/notes-%d.md", i),
			Intended: at(100 * i), Latency: stats.Milliseconds(stats.MsDuration(20.5 - float64(i))), Outcome: stats.OK})
	}
	md.Slowest[3].TraceID, md.Slowest[3].SpanID = "", ""
	png := &stats.SlowReads{BrokeSeen: 7}
	for i := range 5 {
		cut := stats.SlowRead{TraceID: id(16 + i), SpanID: span(16 + i), URI: fmt.Sprintf("docs://attachments/screens/very/deep/folder/shot-%d.png", i),
			Intended: at(1000 + 40*i), Latency: stats.Milliseconds(stats.MsDuration(100.031)), Outcome: stats.Timeout, LowerBound: true}
		png.Slowest = append(png.Slowest, cut)
		png.Broke = append(png.Broke, cut)
	}
	png.Slowest = append(png.Slowest, stats.SlowRead{TraceID: id(32), SpanID: span(32), URI: "docs://attachments/screens/shot-9.png",
		Intended: at(3000), Latency: stats.Milliseconds(stats.MsDuration(99.5)), Outcome: stats.OK})
	r.Classes[0].SlowReads, r.Classes[1].SlowReads = md, png
	return r
}

// TestBriefSlowestFitsTheBudget: the brief report names the slowest reads
// overall, at most briefSlowest, as many as its line budget leaves, each
// on one line within 100 columns with its trace id; none for a result
// that kept none by name.
func TestBriefSlowestFitsTheBudget(t *testing.T) {
	long := func(t testing.TB) *results.Result {
		r := withSlowReads(fixture(t, true))
		r.Classes[1].SlowReads.Slowest[0].URI = "docs://" + strings.Repeat("x", 300) + "/end.png"
		return r
	}
	for _, c := range []struct {
		name string
		r    func(testing.TB) *results.Result
		want int
	}{
		{"clean run: three", func(t testing.TB) *results.Result { return withSlowReads(fixture(t, false)) }, 3},
		{"troubled run: what the budget leaves", func(t testing.TB) *results.Result { return withSlowReads(fixture(t, true)) }, 1},
		{"a long URI: cut to the line", long, 1},
		{"an older result: none", func(t testing.TB) *results.Result { return fixture(t, false) }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteTable(&buf, c.r(t)); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if len(lines) > briefLines {
				t.Errorf("%d lines, over the budget of %d", len(lines), briefLines)
			}
			got := 0
			for i, l := range lines {
				if strings.Contains(l, " trace 4bf92f") {
					got++
					if !strings.HasPrefix(lines[i-got+1], "slowest ") {
						t.Errorf("line %q is not under the slowest label", l)
					}
				}
				if n := utf8.RuneCountInString(l); n > 100 {
					t.Errorf("line %d is %d columns: %q", i+1, n, l)
				}
			}
			if got != c.want {
				t.Errorf("%d slowest reads named, want %d:\n%s", got, c.want, buf.String())
			}
			if c.want > 0 && !strings.Contains(buf.String(), "cut at 100ms timeout trace 4bf92f3577b34da6a3ce929d0e0e0010 ") {
				t.Errorf("the slowest read is not first, cut at its timeout:\n%s", buf.String())
			}
		})
	}
}

// TestClassSlowRowsOnce: a read kept in both lists is listed once, marked
// as breaking a bound; one only among the slowest is not marked.
func TestClassSlowRowsOnce(t *testing.T) {
	r := withSlowReads(fixture(t, false))
	for _, c := range []struct {
		class       int
		rows, broke int
	}{{0, 4, 0}, {1, 6, 5}, {2, 0, 0}} {
		rows := classSlowRows(r.Classes[c.class])
		broke := 0
		for i, row := range rows {
			if row.broke {
				broke++
			}
			if i > 0 && row.read.Latency.Ms() > rows[i-1].read.Latency.Ms() {
				t.Errorf("class %d: not slowest first: %v", c.class, rows)
			}
		}
		if len(rows) != c.rows || broke != c.broke {
			t.Errorf("class %d: %d rows, %d broke; want %d, %d", c.class, len(rows), broke, c.rows, c.broke)
		}
	}
}

// TestFullTableListsEverySlowRead: --full lists every kept read of every
// class, with what each class kept, within 100 columns.
func TestFullTableListsEverySlowRead(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFullTable(&buf, withSlowReads(fixture(t, false))); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	for i, l := range strings.Split(s, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	for _, want := range []string{"markdown: its 4 slowest; none broke a bound", "screenshot: its 6 slowest and the slowest 5 of the 7 that broke a bound",
		"timeout !", "not sampled", "4bf92f3577b34da6a3ce929d0e0e0020"} {
		if !strings.Contains(s, want) {
			t.Errorf("the full report lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "4bf92f3577b34da6a3ce929d0e0e"); n != 9 {
		t.Errorf("%d trace ids listed, want the 9 kept and traced", n)
	}
}

// TestShortURI: a URI that does not fit keeps its path and loses the end
// of its query; one without a query that fits nowhere keeps its end.
func TestShortURI(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"sim:///a.md", 20, "sim:///a.md"},
		{"sim:///screenshot-12-3?delay=lognormal%2812ms%2C40ms%29&mime=image%2Fpng", 30, "sim:///screenshot-12-3?delay=…"},
		{"https://docs.example.com/very/long/path/to/the/document.md", 20, "…/to/the/document.md"},
		{"sim:///a-very-long-name-that-does-not-fit?x=1", 10, "…t-fit?x=1"},
	} {
		if got := shortURI(c.in, c.n); got != c.want || len([]rune(got)) > c.n {
			t.Errorf("shortURI(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestHeadKeepsARunsStart: a run's name (runs/<start>-<server>-<version>)
// keeps its start, the timestamp that tells it from its neighbours, and
// loses its end; a cut is marked "…", never "~" (a home folder).
func TestHeadKeepsARunsStart(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"2026-11-30T02-28-47Z-simserver-0.1.0-dev.json", 24, "2026-11-30T02-28-47Z-si…"},
		{"base.json", 24, "base.json"},
	} {
		if got := head(c.in, c.n); got != c.want || len([]rune(got)) > c.n {
			t.Errorf("head(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
