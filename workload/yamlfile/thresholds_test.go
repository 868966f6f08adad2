package yamlfile

import (
	"errors"
	"github.com/readbench/readbench/workload"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/bounds"
	"gopkg.in/yaml.v3"
)

// thresholdBase is a valid workload to which each case adds its
// thresholds, from line 3.
const thresholdBase = "load: {rate: 5/s, duration: 1s}\nmix: [{class: md, uri: docs://a}]\n"

// TestThresholdErrors: a bad threshold is an error at its line and at the
// column of the offending character, in the key (the metric) or in the
// value (the bound), with the suggestions of package bounds; where the
// value is not written as it reads (escapes, block scalars) the place is
// the scalar's.
func TestThresholdErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		line, col  int
		key, msg   string
	}{
		{"misspelt metric", "thresholds:\n  erors: \"<1%\"\n", 4, 3, "thresholds.erors", `unknown metric "erors" (did you mean "errors"?)`},
		{"unknown class", "thresholds:\n  class.mdd.read.p99: <200ms\n", 4, 9, "thresholds.class.mdd.read.p99", `unknown class "mdd" (did you mean "md"?)`},
		{"class key", "thresholds:\n  class.md.read.p97: <1s\n", 4, 3, "thresholds.class.md.read.p97", "unknown class metric"},
		{"turn size", "thresholds:\n  turn_size.x.p99: <1s\n", 4, 13, "thresholds.turn_size.x.p99", "number of attachments"},
		{"no unit", "thresholds:\n  turn.p99: <800\n", 4, 17, "thresholds.turn.p99", `"800" needs a unit`},
		{"bad duration", "thresholds:\n  read.p99: \"<8x0ms\"\n", 4, 15, "thresholds.read.p99", `bad duration "8x0ms"`},
		{"bad size unit", "thresholds:\n  server_cost.rss_peak: '<1gb'\n", 4, 27, "thresholds.server_cost.rss_peak", `unit "gb" is ambiguous`},
		{"share without %", "thresholds:\n  errors: <1\n", 4, 13, "thresholds.errors", "a share is written in %"},
		{"compare operator", "thresholds:\n  turn.p99: \"=+10%\"\n", 4, 14, "thresholds.turn.p99", "a threshold compares with <, <=, > or >="},
		{"no operator", "thresholds:\n  turn.p99: 800ms\n", 4, 18, "thresholds.turn.p99", "want an operator"},
		{"flow map", "thresholds: {turn.p99: \"<8x0ms\"}\n", 3, 26, "thresholds.turn.p99", "bad duration"},
		{"escaped: the scalar's place", "thresholds:\n  read.p99: \"\\x3c8x0ms\"\n", 4, 13, "thresholds.read.p99", "bad duration"},
		{"block scalar: the scalar's place", "thresholds:\n  read.p99: >-\n    <8x0ms\n", 4, 13, "thresholds.read.p99", "bad duration"},
		{"empty bound", "thresholds:\n  turn.p99: \"\"\n", 4, 13, "thresholds.turn.p99", `want a metric and a bound, such as turn.p99: "<800ms"`},
		{"not a string", "thresholds:\n  turn.p99: [1]\n", 4, 13, "thresholds.turn.p99", "want a string, got a list"},
		{"notifications without listeners", "thresholds:\n  errors: <1%\n  notify.p99: <250ms\n", 5, 3, "thresholds.notify.p99", "notify.p99 is measured on listeners, and this workload has none"},
		{"missed without listeners, flow map", "thresholds: {notify.missed: <1%}\n", 3, 14, "thresholds.notify.missed", "add a listen section"},
		{"count with a unit", "listen: {listeners: 2}\nthresholds:\n  notify.violations: <1ms\n", 5, 23, "thresholds.notify.violations", "plain number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(thresholdBase+c.yaml))
			var e *workload.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse = %v; want an *Error", err)
			}
			if e.File != "bad.yaml" || e.Line != c.line || e.Col != c.col || e.Key != c.key || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got %s\nwant bad.yaml:%d:%d: %s: …%s…", e, c.line, c.col, c.key, c.msg)
			}
			if _, many := err.(workload.Errors); many {
				t.Errorf("one mistake, several errors: %v", err)
			}
		})
	}
}

// TestThresholdsParsed: the thresholds come out parsed, sorted by metric,
// and as written (a result records them so).
func TestThresholdsParsed(t *testing.T) {
	w, err := Parse("ok.yaml", []byte(thresholdBase+"thresholds:\n  turn.p99: \"< 800ms\"\n  class.md.errors: <1%\n  errors: '<=2%'\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, th := range w.Thresholds {
		got = append(got, th.Metric+": "+th.Bound+" = "+th.Parsed.Text)
	}
	want := []string{"class.md.errors: <1% = class.md.errors<1%", "errors: <=2% = errors<=2%", "turn.p99: < 800ms = turn.p99<800ms"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
	if bs := w.Bounds(); len(bs) != 3 || bs[2].Op != bounds.Less || bs[2].Limit != 800 {
		t.Errorf("Bounds = %+v", bs)
	}
}

// TestThresholdsWithListeners: thresholds on the freshness loop parse
// when the file has listeners.
func TestThresholdsWithListeners(t *testing.T) {
	w, err := Parse("ok.yaml", []byte(thresholdBase+"listen: {listeners: 2}\nchanges: {rate: 1/s, via: {tool: touch}}\n"+
		"thresholds:\n  notify.p99: <250ms\n  ack.p99: <1s\n  notify.missed: <=0%\n  notify.violations: <1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Thresholds) != 4 || w.Listen == nil {
		t.Fatalf("thresholds %+v, listen %+v", w.Thresholds, w.Listen)
	}
}

// TestSeveralErrors: every mistake of a file is reported, one positioned
// line each, sorted by place, whether the walk or validation found it;
// what a mistake already explains is not said twice.
func TestSeveralErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"three mistakes", "load: {rate: 50/sec, duration: 1s}\nmix: [{class: md, uri: docs://a, wieght: 2}]\nthresholds:\n  erors: \"<1%\"\n", []string{
			`bad.yaml:1:14: load.rate: bad rate "50/sec": bad period "sec" (want s, min, h, ms or a duration such as 10s)`,
			`bad.yaml:2:34: mix[0].wieght: unknown key (did you mean "weight"?)`,
			`bad.yaml:4:3: thresholds.erors: unknown metric "erors" (did you mean "errors"?)`,
		}},
		{"walk and validation", "thresholds: {class.mdd.errors: <1%}\nsessions: 0\nload: {model: closed, rate: 5/s, concurrency: 2, duration: 1s}\nmix:\n  - {class: md, uri: docs://a, expect: notfound}\n  - {class: md, uri: docs://b}\n", []string{
			`bad.yaml:1:20: thresholds.class.mdd.errors: unknown class "mdd" (did you mean "md"?)`,
			`bad.yaml:2:11: sessions: 0 is out of range (1 to 100000)`,
			`bad.yaml:3:29: load.rate: a rate is for the open model; the closed model starts a turn when one ends`,
			`bad.yaml:5:40: mix[0].expect: unknown outcome "notfound" (did you mean "not_found"?)`,
			`bad.yaml:6:13: mix[1].class: duplicate class name "md" (also mix[0])`,
		}},
		{"a refused value is not also missing", "load: {rate: fast}\nmix: [{class: a, uri: docs://a, size: 8kb, mime: text/plain}]\n", []string{
			`bad.yaml:1:14: load.rate: bad rate "fast": want a number (a rate is turns per period, such as 50/s, 3000/min or 2/ms)`,
			`bad.yaml:2:39: mix[0].size: bad size "8kb": unit "kb" is ambiguous: write KiB/MiB/GiB for powers of 1024 or KB/MB/GB for powers of 1000`,
		}},
		{"duplicate keys and bad items", "load: {rate: 5/s, rate: 6/s}\nmix: [{class: a, uris: [docs://a, '', docs://c, '']}]\n", []string{
			`bad.yaml:1:19: load.rate: duplicate key (first set at line 1)`,
			`bad.yaml:2:35: mix[0].uris[1]: empty string`,
			`bad.yaml:2:49: mix[0].uris[3]: empty string`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", err, strings.Join(c.want, "\n"))
			}
			var e *workload.Error
			if !errors.As(err, &e) || e.Error() != c.want[0] {
				t.Errorf("errors.As = %v; want the first, %s", e, c.want[0])
			}
		})
	}
}

// FuzzThresholds: any metric and bound, written into a workload, parse
// exactly as package bounds parses them, and a refused one is an *Error at
// the entry's key path, placed inside the file.
func FuzzThresholds(f *testing.F) {
	for _, s := range [][2]string{{"turn.p99", "<800ms"}, {"erors", "<1%"}, {"class.md.read.p99", "<=1s"}, {"class.x.errors", "<1%"},
		{"turn_size.4.p999", ">1s"}, {"rate", ">=45/s"}, {"read.p99", "=+10%"}, {"server_cost.rss_peak", "<1gb"}, {"errors", ""}, {"ñ", "<é"}} {
		f.Add(s[0], s[1], false)
		f.Add(s[0], s[1], true)
	}
	f.Fuzz(func(t *testing.T, metric, bound string, raw bool) {
		var doc []byte
		if raw { // as a person might type it: possibly not YAML at all
			doc = []byte(thresholdBase + "thresholds:\n  " + metric + ": " + bound + "\n")
		} else {
			if !utf8.ValidString(metric) || !utf8.ValidString(bound) {
				return // YAML writes such a string as !!binary: not a threshold
			}
			var err error
			doc, err = yaml.Marshal(map[string]any{"load": map[string]string{"rate": "5/s", "duration": "1s"},
				"mix": []map[string]string{{"class": "md", "uri": "docs://a"}}, "thresholds": map[string]string{metric: bound}})
			if err != nil {
				return
			}
		}
		w, err := Parse("f.yaml", doc)
		lines := sourceLines(doc)
		var e *workload.Error
		if err != nil {
			if w != nil || !errors.As(err, &e) {
				t.Fatalf("Parse = %v, %v; want nil and an *Error", w, err)
			}
			for _, e := range append(workload.Errors{e}, asList(err)...) {
				if e.Line > len(lines) || (e.Line > 0 && e.Col > len([]rune(lines[e.Line-1]))+1) {
					t.Fatalf("%s: outside the file\n%s", e, doc)
				}
			}
		}
		if raw {
			return
		}
		// What YAML gives back is what the file says ("\n" as a key may
		// come back as another string).
		var back struct{ Thresholds map[string]string }
		if yaml.Unmarshal(doc, &back) != nil || len(back.Thresholds) != 1 {
			return
		}
		for metric, bound = range back.Thresholds {
		}
		want, werr := bounds.ParseThresholdPair(metric, bound)
		ok := werr == nil && strings.TrimSpace(bound) != "" && (want.Metric.Class == "" || want.Metric.Class == "md")
		switch {
		case ok:
			if err != nil || len(w.Thresholds) != 1 || w.Thresholds[0].Parsed != want || w.Thresholds[0].Bound != bound {
				t.Fatalf("bounds parses %q %q as %+v; Parse: %v", metric, bound, want, err)
			}
		case err == nil:
			t.Fatalf("bounds refuses %q %q (%v) and Parse accepts it", metric, bound, werr)
		case e.Key != "thresholds."+metric:
			t.Fatalf("%q %q: the error %s is not at the threshold", metric, bound, e)
		}
	})
}

// asList is the mistakes of an error of Parse.
func asList(err error) workload.Errors {
	if es, ok := err.(workload.Errors); ok {
		return es
	}
	return nil
}

// TestManyErrorsCapped: a file that repeats a mistake (here through an
// alias) reports the first maxErrors and counts the rest.
func TestManyErrorsCapped(t *testing.T) {
	doc := "x-c: &c {class: a, wieght: 1, uri: docs://a}\nload: {rate: 5/s}\nmix: [*c" + strings.Repeat(", *c", maxErrors+49) + "]\n"
	_, err := Parse("many.yaml", []byte(doc))
	es, ok := err.(workload.Errors)
	if !ok || len(es) != maxErrors+1 || es[maxErrors].Error() != "many.yaml: and 50 more mistakes" || es[0].Key != "mix[0].wieght" {
		t.Fatalf("got %d errors, %v", len(es), err)
	}
}
