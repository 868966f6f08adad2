package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNoFigureWithoutReads: a run whose every read is cancelled (the
// embedded server takes 400 ms, the deadline is 100 ms) answered nothing
// a figure per read can stand on. The server's CPU is real; CPU per 1,000
// reads, the generator's, the first read against a median that was never
// measured and a memory slope over a one-second run are not: null in the
// document, "-" in every report, never a zero that reads as "free".
func TestNoFigureWithoutReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
name: all-cancelled
load: {rate: 20/s, duration: 1s}
turn: {attachments: 2, read_timeout: 5s, deadline: 100ms}
mix:
  - {class: slow, uri: "sim:///slow?mime=text/plain&size=100&delay=400ms"}
`)
	table, stderr, code := readbench(t, dir, "run", wl, "--full", "--out", "r.json") // the cost lines are detail
	if code != 0 && code != 1 {                                                      // 1: a run in which every read failed may be called useless
		t.Fatalf("exit %d\n%s\n%s", code, table, stderr)
	}
	raw := rawResult(t, filepath.Join(dir, "r.json"))
	// Every read is cut by the deadline, or, on a busy machine, dropped
	// by a generator that could not start it in time: none is answered.
	tot := raw["totals"].(map[string]any)
	if out := tot["outcomes"].(map[string]any); out["cancelled"].(float64)+out["dropped"].(float64) != tot["scheduled"] {
		t.Fatalf("not every read was cancelled or dropped: %v", out)
	}
	cost := raw["server_cost"].(map[string]any)
	gen := raw["generator"].(map[string]any)
	nulls := map[string]any{
		"server_cost.cpu_ms_per_1000_reads":           cost["cpu_ms_per_1000_reads"],
		"server_cost.rss.slope_mib_per_min":           cost["rss"].(map[string]any)["slope_mib_per_min"],
		"server_cost.rss.slope_se_mib_per_min":        cost["rss"].(map[string]any)["slope_se_mib_per_min"],
		"server_cost.cold_start.first_read_vs_median": cost["cold_start"].(map[string]any)["first_read_vs_median"],
		"generator.cpu_ms_per_1000_reads":             gen["cpu_ms_per_1000_reads"],
	}
	for k, v := range nulls {
		if v != nil {
			t.Errorf("%s is %v, want null: no read was answered", k, v)
		}
	}

	html, stderr, code := readbench(t, dir, "report", "r.json", "--format", "html")
	if code != 0 {
		t.Fatalf("report html: exit %d: %s", code, stderr)
	}
	md, stderr, code := readbench(t, dir, "report", "r.json", "--format", "markdown")
	if code != 0 {
		t.Fatalf("report markdown: exit %d: %s", code, stderr)
	}
	again, stderr, code := readbench(t, dir, "report", "r.json", "--full")
	if code != 0 {
		t.Fatalf("report table: exit %d: %s", code, stderr)
	}
	for name, out := range map[string]string{"run": table, "table": again, "html": html, "markdown": md} {
		for _, bad := range []string{"0.0 ms per 1,000 reads", "0.00×", "0.000×", "MiB/min", "read median 0"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s report says %q with no read answered:\n%s", name, bad, out)
			}
		}
	}
	if cost["available"] == true {
		for name, out := range map[string]string{"run": table, "table": again, "html": html} {
			if !strings.Contains(out, "- per 1,000 reads") || !strings.Contains(out, "slope -") {
				t.Errorf("%s report has no \"- per 1,000 reads\" and \"slope -\":\n%s", name, out)
			}
		}
	}
}

// TestNoShareWithoutSentReads: a rate the generator cannot start drops
// every read, so no read was sent: the share of reads a host would not
// have sent and the share each timeout would have ended have nothing
// under them. Null in the document, "-" in the table and the markdown,
// never a 0% that reads as "no read would have been affected".
func TestNoShareWithoutSentReads(t *testing.T) {
	t.Parallel()
	// On a busy machine the generator can still start a read or two
	// before it falls behind: then the shares are measured, and the run
	// is tried again (at most three times) until nothing was sent.
	var dir, table string
	var raw map[string]any
	for try := 1; ; try++ {
		dir = t.TempDir()
		var stderr string
		var code int
		table, stderr, code = readbench(t, dir, "run", "--rate", "100000/s", "--duration", "10ms", "--full", "--out", "r.json") // the advice reasoning is detail
		raw = rawResult(t, filepath.Join(dir, "r.json"))
		tot := raw["totals"].(map[string]any)
		out := tot["outcomes"].(map[string]any)
		if out["dropped"] == tot["scheduled"] {
			if code != exitFail {
				t.Fatalf("exit %d, want %d (nothing sent)\n%s\n%s", code, exitFail, table, stderr)
			}
			break
		}
		if try == 3 {
			t.Fatalf("not every read was dropped in %d tries: %v", try, out)
		}
	}
	for _, c := range raw["classes"].([]any) {
		c := c.(map[string]any)
		if v := c["cache"].(map[string]any)["would_not_send_share"]; v != nil {
			t.Errorf("class %v: cache.would_not_send_share %v, want null: no read was sent", c["class"], v)
		}
	}
	timeouts := raw["advice"].(map[string]any)["timeouts"].([]any)
	if len(timeouts) == 0 {
		t.Fatal("no timeout candidates in the advice")
	}
	for _, c := range timeouts {
		if c := c.(map[string]any); c["share"] != nil {
			t.Errorf("advice timeout %v ms: share %v, want null: no read was sent", c["ms"], c["share"])
		}
	}
	md, stderr, code := readbench(t, dir, "report", "r.json", "--format", "markdown")
	if code != 0 {
		t.Fatalf("report markdown: exit %d: %s", code, stderr)
	}
	for name, out := range map[string]string{"table": table, "markdown": md} {
		if !strings.Contains(out, "timeout 5.00s ended - of reads") {
			t.Errorf("%s: no \"timeout 5.00s ended - of reads\":\n%s", name, out)
		}
		for _, bad := range []string{"ended 0% of reads", "0% of reads ended", "read timeout **0**"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s says %q with no read sent:\n%s", name, bad, out)
			}
		}
	}
	if !strings.Contains(md, "| read timeout | 5.00s | - of reads ended |") {
		t.Errorf("markdown advice row of 5 s is not '-':\n%s", md)
	}
}
