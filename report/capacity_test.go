package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/readbench/readbench/capacity"
	"github.com/readbench/readbench/results"
)

func TestWriteCapacity(t *testing.T) {
	r := &capacity.RateFinding{
		Target: "http://127.0.0.1:8080/mcp", Server: "sim 1", SLO: "read.p99<50ms", Unit: "turns/s",
		ReadsPerS: 375, WireMBPerS: 0.526, LimitedBy: capacity.LimitGenerator, Conclusion: "the conclusion.",
		Interval: &capacity.Interval{Low: 375, Unmeasured: []float64{400}, Cause: capacity.CauseGenerator},
		Steps: []capacity.Step{
			{Phase: "step", Rate: 200, Achieved: 200, Read: capacity.Percentiles{P50Ms: 10.6, P99Ms: 14.4}, Pass: true},
			{Phase: "refine", Rate: 400, Achieved: 398, Read: capacity.Percentiles{P50Ms: 78.2, P99Ms: 146}, GeneratorBound: true,
				Reason: "read.p99<50ms measured 146ms; generator-bound: scheduling lag p99 90 ms"},
		},
	}
	var b bytes.Buffer
	if err := WriteCapacity(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if first, _, _ := strings.Cut(out, "\n"); first != "! max sustainable rate not known: ≥ 375 turns/s: the rates above could not be measured by this generator" {
		t.Errorf("the answer is not the first line:\n%s", out)
	}
	if n := strings.Count(out, "max sustainable"); n != 1 {
		t.Errorf("the answer is said %d times:\n%s", n, out)
	}
	for _, want := range []string{"SLO read.p99<50ms", "2 refine", "FAIL: read.p99<50ms measured 146ms; generator-bound: scheduling lag",
		"the conclusion."} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	b.Reset()
	if err := WriteSizeSweep(&b, &capacity.SizeFinding{Rate: 5, Conclusion: "sizes.", Steps: []capacity.Step{{Phase: "size", Size: 64 << 10, Rate: 5}}}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "✗ largest size within the SLO: none\n") || !strings.Contains(b.String(), "64KiB") || !strings.Contains(b.String(), "sizes.") {
		t.Errorf("size sweep:\n%s", b.String())
	}
}

// TestTableNamesShards: a shard's report says it is a share, a merged
// one that it was merged.
func TestTableNamesShards(t *testing.T) {
	r := fixture(t, false)
	r.Segment = results.Segment{K: 2, N: 4}
	var b bytes.Buffer
	if err := WriteTable(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "segment 2/4: this shard's share") {
		t.Errorf("shard header:\n%.600s", b.String())
	}
	r.Segment, r.Shards = results.Segment{K: 1, N: 1}, make([]results.Shard, 3)
	b.Reset()
	if err := WriteTable(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "merged from 3 shards") {
		t.Errorf("merged header:\n%.600s", b.String())
	}
}

// TestWriteCapacityHold: a step run again is marked so, its next run
// numbered; the hold and the resolution are printed under the rate.
func TestWriteCapacityHold(t *testing.T) {
	r := &capacity.RateFinding{
		Target: "http://127.0.0.1:8080/mcp", Server: "sim 1", SLO: "read.p99<50ms", Unit: "turns/s",
		MaxSustainableRate: new(350.0), ReadsPerS: 350, LimitedBy: capacity.LimitSLO, FirstBadRate: 375, Resolution: 25, Conclusion: "the conclusion.",
		Hold: &capacity.Hold{Rate: 350, DurationS: 20, Pass: true},
		Steps: []capacity.Step{
			{Phase: "step", Rate: 200, Attempt: 1, Rerun: true, GeneratorBound: true, Reason: "read.p99<50ms measured 120ms; generator-bound: 1 of 2 measured seconds had scheduling lag over 25 ms"},
			{Phase: "step", Rate: 200, Attempt: 2, Retries: 1, Pass: true},
			{Phase: "hold", Rate: 350, Attempt: 1, Pass: true},
		},
	}
	var b bytes.Buffer
	if err := WriteCapacity(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"run again: FAIL: read.p99<50ms measured 120ms; generator-bound", "2 step #2", "3 hold",
		"hold: 350 turns/s for 20s held the SLO", "resolution: 25.0 turns/s (the limit lies between 350 and 375 turns/s)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
