package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// TestCompareViews: the table and the markdown name both servers, every
// section, the verdicts, the changed content and the bounds, and escape
// what comes from the files.
func TestCompareViews(t *testing.T) {
	base, nw := fixture(t, false), fixture(t, false)
	nw.Target.Server.Version = "2.0|<b>"
	nw.Read.P50Ms *= 2
	base.Digests = map[string]results.Digest{"docs://a": {SHA256: "sha256:aaaa", MIME: "text/markdown", Bytes: 10}}
	nw.Digests = map[string]results.Digest{"docs://a": {SHA256: "sha256:bbbb", MIME: "text/markdown", Bytes: 11}}
	cmp, err := compare.Pair(base, nw, compare.PairOptions{BaseLabel: "base.json", NewLabel: "new.json"})
	if err != nil {
		t.Fatal(err)
	}
	cmp.Bounds = []compare.BoundCheck{{Bound: "read.p50=+10%", Metric: "read.p50", Unit: "ms", Base: 1, New: 2, Limit: 1.1, Noise: compare.Untested}}
	var tbl, md bytes.Buffer
	if err := WriteCompareTable(&tbl, cmp); err != nil {
		t.Fatal(err)
	}
	if err := WriteCompareMarkdown(&md, cmp); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"base.json", "new.json", "latency", "per class", "rates", "outcomes", "inflation",
		"read p50", "+100.0%", "docs://a: bytes, size changed", "FAIL  read.p50=+10%"} {
		if !strings.Contains(tbl.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tbl.String())
		}
	}
	for _, want := range []string{"## readbench compare", "❌ regression: 1 of 1 bound broken", "2.0\\|&lt;b&gt;", "### latency", "<details><summary>per class</summary>",
		"docs://a: bytes, size changed"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}

// TestThresholdViews: the table and the markdown report of a run held to
// thresholds print each with its verdict and measured value.
func TestThresholdViews(t *testing.T) {
	r := fixture(t, false)
	r.Thresholds = []results.Verdict{
		{Bound: "turn.p99<800ms", Metric: "turn.p99", Unit: "ms", Measured: 812, Limit: 800},
		{Bound: "errors<1%", Metric: "errors", Unit: "%", Measured: 0.5, Limit: 1, Pass: true},
	}
	var tbl, md bytes.Buffer
	if err := WriteTable(&tbl, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FAIL  turn.p99<800ms", "measured 812ms", "PASS  errors<1%", "measured 0.50%"} {
		if !strings.Contains(tbl.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	for _, want := range []string{"### Thresholds", "| ❌ fail | `turn.p99<800ms` | measured 812ms |", "| ✅ pass | `errors<1%` |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}

// TestCompareViewsNameTheCommand: an ab experiment's views are titled
// "readbench ab", a plain comparison's "readbench compare", in every
// format that has a title.
func TestCompareViewsNameTheCommand(t *testing.T) {
	for _, command := range []string{"", "compare", "ab"} {
		base, nw := fixture(t, false), fixture(t, false)
		cmp, err := compare.Pair(base, nw, compare.PairOptions{BaseLabel: "base.json", NewLabel: "new.json"})
		if err != nil {
			t.Fatal(err)
		}
		cmp.Command = command
		want := "readbench " + command
		if command == "" {
			want = "readbench compare"
		}
		var tbl, md, page bytes.Buffer
		if err := WriteCompareTable(&tbl, cmp); err != nil {
			t.Fatal(err)
		}
		if err := WriteCompareMarkdown(&md, cmp); err != nil {
			t.Fatal(err)
		}
		if err := CompareHTML(&page, cmp, oneRun(base), oneRun(nw)); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"table": tbl.String(), "markdown": md.String(), "html": page.String()} {
			if !strings.Contains(out, want+":") {
				t.Errorf("command %q: the %s lacks %q", command, name, want+":")
			}
			if command == "ab" && strings.Contains(out, "readbench compare:") {
				t.Errorf("the ab %s is titled readbench compare", name)
			}
		}
	}
}

// TestCompareRowsInWords: compare's latency rows name their figures as
// the run report does ("ok read p99.9"), never by the keys read_ok and
// p999, in every row where a stat is named: overall, per class, per
// turn size.
func TestCompareRowsInWords(t *testing.T) {
	base, nw := fixture(t, false), fixture(t, false)
	cmp, err := compare.Pair(base, nw, compare.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var tbl, md bytes.Buffer
	if err := WriteCompareTable(&tbl, cmp); err != nil {
		t.Fatal(err)
	}
	if err := WriteCompareMarkdown(&md, cmp); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"table": tbl.String(), "markdown": strings.ReplaceAll(md.String(), `\_`, "_")} {
		for _, want := range []string{"read p99.9", "ok read p50", "turn p99.9"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
		for _, key := range []string{"p999", "read_ok"} {
			if strings.Contains(out, key) {
				t.Errorf("%s names the key %q:\n%s", name, key, out)
			}
		}
	}
}

func TestLatencyWords(t *testing.T) {
	for _, c := range []struct{ block, stat, want string }{
		{"read", "p999", "read p99.9"},
		{"read_ok", "p50", "ok read p50"},
		{"first_read", "max", "first read max"},
		{"handshake", "mean", "handshake mean"},
		{"turn", "errors", "turn errors"}, // not a latency stat: kept
	} {
		if got := latencyWords(c.block, c.stat); got != c.want {
			t.Errorf("latencyWords(%q, %q) = %q, want %q", c.block, c.stat, got, c.want)
		}
	}
}
