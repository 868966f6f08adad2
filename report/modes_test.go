package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
)

func modeResult(transport, class, chunk string, reads, ok, chunks, wire, disk int64, infl float64, rss int64) *results.Result {
	r := &results.Result{}
	r.Target.Transport = transport
	r.Workload.Name = "large-log"
	r.Workload.Mix = []workload.Class{{Name: class}}
	if chunk != "" {
		n, _ := units.ParseSize(chunk)
		r.Workload.Mix[0].Ranged = &workload.Ranged{Chunk: n}
	}
	c := results.Class{Class: class, Reads: reads, Outcomes: map[string]int64{"ok": ok}, WireBytes: wire, DiskBytes: disk, Inflation: &infl}
	c.Latency = stats.Latency{Count: reads, P50Ms: 120, P99Ms: 180}
	c.Chunk = stats.Latency{Count: chunks, P50Ms: 3}
	c.FirstUsable = stats.Latency{Count: ok, P50Ms: 4}
	r.Classes = []results.Class{c}
	r.Generator.PeakRSSBytes = rss
	return r
}

// TestWriteModes: one row per mode with per-read bytes, and notes where a
// figure would otherwise mislead (failed reads, classes sharing a process).
func TestWriteModes(t *testing.T) {
	const mib = 1 << 20
	rs := []*results.Result{
		modeResult("http", "whole", "", 2, 2, 0, 2*16_777_300, 2*12*mib, 1.3334, 80_000_000),
		modeResult("http", "chunked", "256KiB", 2, 2, 96, 2*16_790_000, 2*12*mib, 1.3344, 30_000_000),
		modeResult("files", "chunked", "256KiB", 3, 2, 144, 2*12*mib, 2*12*mib, 1, 20_000_000),
	}
	var b bytes.Buffer
	if err := WriteModes(&b, rs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"mcp/http whole", "mcp/http ranged 256KiB", "http ranged 256KiB",
		"1.333×", "1.000×", "12.6 MB", "16.8 MB", "80.0 MB", "20.0 MB",
		"note: chunked (http ranged 256KiB): 1 of 3 reads were not ok",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "ran 2 classes") {
		t.Errorf("a one-class run noted as shared:\n%s", out)
	}
	lines := strings.Split(out, "\n")
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing blank: %q", l)
		}
	}
}
