package results

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/servercost"
)

func TestServerCostOf(t *testing.T) {
	c := servercost.Summary{
		Available: true, Processes: 2, Samples: 41, CPU: 1500 * time.Millisecond, Reads: 3000,
		CPUPer1000Reads: 500 * time.Millisecond,
		RSSStart:        20 << 20, RSSPeak: 64 << 20, RSSEnd: 30 << 20, RSSGrowth: 10 << 20, RSSSlope: servercost.Slope{OK: true, MiBPerMin: 1.23456, StdErr: 0.0444},
		ColdStart: true, SpawnToFirstAnswer: 80 * time.Millisecond, Handshake: 12 * time.Millisecond, FirstRead: 9 * time.Millisecond,
	}
	got := ServerCostOf(c, 1.5)
	want := ServerCost{
		Available: true, Processes: 2, Samples: 41, CPUSeconds: 1.5, Reads: 3000, CPUMsPer1000Reads: figure(500),
		RSS:       RSSCost{StartMiB: 20, PeakMiB: 64, EndMiB: 30, GrowthMiB: 10, SlopeMiBPerMinute: figure(1.235), SlopeStdErr: figure(0.044)},
		ColdStart: Cold{Available: true, SpawnToFirstAnswerMs: 80, HandshakeMs: 12, FirstReadMs: figure(9), SteadyMedianMs: figure(1.5), FirstReadVsMedian: figure(6)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if s := ServerCostOf(c, 0); s.ColdStart.FirstReadVsMedian != nil {
		t.Errorf("ratio without a median: %v", *s.ColdStart.FirstReadVsMedian)
	}
	c.ColdStart = false
	if s := ServerCostOf(c, 1.5); s.ColdStart != (Cold{}) {
		t.Errorf("cold start of a server readbench did not spawn: %+v", s.ColdStart)
	}
}

// TestServerCostNotAvailable: a cost that was not measured says why, and
// writes every key all the same.
func TestServerCostNotAvailable(t *testing.T) {
	for _, c := range []servercost.Summary{{}, {Reason: "not sampled: no --server-pid"}} {
		s := ServerCostOf(c, 2)
		if s.Available || s.Reason == "" || s.CPUSeconds != 0 || s.ColdStart.Available {
			t.Errorf("%+v", s)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{`"available"`, `"reason"`, `"cpu_s"`, `"cpu_ms_per_1000_reads"`, `"rss"`, `"peak_mib"`,
			`"slope_mib_per_min"`, `"cold_start"`, `"spawn_to_first_answer_ms"`, `"first_read_vs_median"`, `"samples"`} {
			if !strings.Contains(string(b), k) {
				t.Errorf("%s missing from %s", k, b)
			}
		}
		var back ServerCost
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, s) {
			t.Errorf("round trip: %+v, %v", back, err)
		}
	}
}
