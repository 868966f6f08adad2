package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// cancelledRun is a stdio run in which every read was cancelled: the
// server spent CPU, answered nothing, and ran for 5 s, too short for a
// memory slope. Its cost block is what results.ServerCostOf makes of it
// (results' TestNoFigureWithoutADivisor): every figure with nothing under
// it nil.
func cancelledRun(t testing.TB) *results.Result {
	r := document(t, "timeline.json")
	r.ServerCost = results.ServerCost{Available: true, Processes: 1, Samples: 21, CPUSeconds: 6.02,
		RSS:       results.RSSCost{StartMiB: 40, PeakMiB: 44, EndMiB: 44, GrowthMiB: 4},
		ColdStart: results.Cold{Available: true, SpawnToFirstAnswerMs: 30, HandshakeMs: 12}}
	r.Generator = results.Generator{PeakRSSBytes: 16 << 20, CPUAvailable: true, CPUSeconds: 0.5}
	r.ReadOK, r.Service = stats.Latency{HDR: r.ReadOK.HDR}, stats.Latency{HDR: r.Service.HDR}
	return r
}

// TestNoFigureInAnyFormat: a figure with nothing under it reads "-" in
// every format and null in the JSON, never a zero.
func TestNoFigureInAnyFormat(t *testing.T) {
	r := cancelledRun(t)
	render := map[string]func(*bytes.Buffer) error{
		"table":    func(b *bytes.Buffer) error { return WriteFullTable(b, r) }, // the cost lines are detail
		"markdown": func(b *bytes.Buffer) error { return WriteMarkdown(b, r) },
		"html":     func(b *bytes.Buffer) error { return WriteHTML(b, []*results.Result{r}) },
		"junit":    func(b *bytes.Buffer) error { return WriteJUnit(b, r) },
		"json":     func(b *bytes.Buffer) error { return WriteJSON(b, []*results.Result{r}) },
	}
	// What each format must say, beside never saying a zero figure.
	want := map[string][]string{
		"table": {"CPU 6.02 s over the measured run, - per 1,000 reads", "slope - (a slope needs a minute of samples)",
			"first read - (none answered)", "readbench  CPU 0.50 s over the measured run, - per 1,000 reads"},
		"html": {"CPU 6.02 s over the measured run, - per 1,000 reads", "slope - (a slope needs a minute of samples)",
			"first read - (none answered)"},
	}
	for name, f := range render {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f(&b); err != nil {
				t.Fatal(err)
			}
			out := strings.ReplaceAll(b.String(), "\n           ", " ") // the table's lines wrapped under their labels, read whole
			for _, bad := range []string{"0.0 ms per 1,000 reads", "0.00×", "0.000×", "MiB/min", "steady median 0"} {
				if strings.Contains(out, bad) {
					t.Errorf("%q in\n%s", bad, out)
				}
			}
			for _, w := range want[name] {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in\n%s", w, out)
				}
			}
			if name == "table" || name == "markdown" {
				okReadsRow(t, out)
			}
			if name != "json" {
				return
			}
			var doc struct {
				ServerCost struct {
					PerRead *float64 `json:"cpu_ms_per_1000_reads"`
					RSS     map[string]*float64
					Cold    map[string]any `json:"cold_start"`
				} `json:"server_cost"`
				Generator map[string]any `json:"generator"`
			}
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			d := doc
			cold := d.ServerCost.Cold
			for k, v := range map[string]any{
				"server_cost.cpu_ms_per_1000_reads": d.ServerCost.PerRead, "rss.slope_mib_per_min": d.ServerCost.RSS["slope_mib_per_min"],
				"rss.slope_se_mib_per_min": d.ServerCost.RSS["slope_se_mib_per_min"], "cold_start.first_read_ms": cold["first_read_ms"],
				"cold_start.steady_median_ms": cold["steady_median_ms"], "cold_start.first_read_vs_median": cold["first_read_vs_median"],
				"generator.cpu_ms_per_1000_reads": d.Generator["cpu_ms_per_1000_reads"],
			} {
				if !isNull(v) {
					t.Errorf("%s = %v, want null", k, v)
				}
				if _, ok := cold[strings.TrimPrefix(k, "cold_start.")]; strings.HasPrefix(k, "cold_start.") && !ok {
					t.Errorf("%s missing: every key is written", k)
				}
			}
		})
	}
}

// okReadsRow checks the latency row of a block that recorded nothing:
// count 0, and "-" for every percentile, the maximum and the mean.
func okReadsRow(t *testing.T, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		if strings.TrimSpace(cells[0]) != "ok reads" {
			continue
		}
		var got []string
		for _, c := range cells[1:] {
			got = append(got, strings.TrimSpace(c))
		}
		if strings.Join(got, " ") != "0 - - - - - -" {
			t.Errorf("ok reads row %q, want count 0 and \"-\" for the rest", l)
		}
		return
	}
	t.Errorf("no ok reads row in\n%s", out)
}

func isNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case *float64:
		return x == nil
	}
	return false
}

// TestRatesOverNoTime: a result with no measured time has no rates: the
// reports print "-" where a rate would be, not "0 reads/s".
func TestRatesOverNoTime(t *testing.T) {
	r := fixture(t, false)
	tot := &r.Totals
	tot.MeasuredS, tot.ReadsPerS, tot.TurnsPerS, tot.AchievedRate, tot.WireMBPerS, tot.DiskMBPerS = 0, nil, nil, nil, nil, nil
	var table, full, md bytes.Buffer
	if err := WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteFullTable(&full, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ out, want string }{
		"table":    {table.String(), "achieved -, -\n"},
		"bytes":    {table.String(), "wire 245 MB (-), disk 184 MB (-)"},
		"full":     {full.String(), "(wire -, disk -;"},
		"markdown": {md.String(), "Wire -, disk -;"},
	} {
		if !strings.Contains(c.out, c.want) || strings.Contains(c.out, " 0 reads/s") || strings.Contains(c.out, "0 B/s") {
			t.Errorf("%s: want %q and no zero rate in\n%s", name, c.want, c.out)
		}
	}
}
