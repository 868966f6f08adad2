package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// sampledReads gives r one class whose kept reads are, slowest first,
// as the string says: T a read that names a trace, - one of a turn not
// sampled, X one that never reached the server.
func sampledReads(r *results.Result, kinds string) *results.Result {
	k := &stats.SlowReads{}
	for i, c := range kinds {
		read := stats.SlowRead{URI: fmt.Sprintf("docs://a/%d.md", i), Intended: r.Started.Add(time.Duration(i) * time.Millisecond).UTC(),
			Latency: stats.Milliseconds(stats.MsDuration(float64(900 - 10*i))), Outcome: stats.OK}
		switch c {
		case 'T':
			read.TraceID, read.SpanID = fmt.Sprintf("4bf92f3577b34da6a3ce929d0e0e%04x", i), fmt.Sprintf("00f067aa0ba9%04x", i)
		case 'X':
			read.Outcome, read.Unreached = stats.Transport, true
		}
		k.Slowest = append(k.Slowest, read)
	}
	for i := range r.Classes {
		r.Classes[i].SlowReads = nil
	}
	r.Classes[0].SlowReads = k
	return r
}

// TestBriefSlowestPrefersTraced (issue 47, item 13): with trace sampling
// the brief report names the run's slowest read, then the slowest reads
// that name a trace (labelled "traced"), so that a reader has reads to
// open; the n slowest when every one, or none, names a trace. A read
// names why it has no trace in words ("not sampled", "never reached the
// server"), never "trace not traced".
func TestBriefSlowestPrefersTraced(t *testing.T) {
	for _, c := range []struct {
		name, kinds string
		want        []string // the slowest lines, in order
	}{
		{"every read traced", "TTTT", []string{"slowest 900ms ok trace 4bf92f3577b34da6a3ce929d0e0e0000", "890ms ok trace ", "880ms ok trace "}},
		{"half sampled: the slowest, then the traced", "---T-T", []string{"slowest 900ms ok not sampled", "traced 870ms ok trace 4bf92f3577b34da6a3ce929d0e0e0003",
			"850ms ok trace 4bf92f3577b34da6a3ce929d0e0e0005"}},
		{"one traced read in all", "----T", []string{"slowest 900ms ok not sampled", "traced 860ms ok trace "}},
		{"none sampled", "----", []string{"slowest 900ms ok not sampled", "890ms ok not sampled", "880ms ok not sampled"}},
		{"refused reads", "XXT", []string{"slowest 900ms transport never reached the server", "traced 880ms ok trace "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteTable(&buf, sampledReads(fixture(t, false), c.kinds)); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if strings.Contains(out, "trace not traced") || strings.Contains(out, "not traced") {
				t.Errorf("says \"not traced\":\n%s", out)
			}
			lines := strings.Split(out, "\n")
			first := -1
			for i, l := range lines {
				if strings.HasPrefix(l, "slowest ") {
					first = i
				}
			}
			if first < 0 || first+len(c.want) > len(lines) {
				t.Fatalf("no slowest lines:\n%s", out)
			}
			for i, want := range c.want {
				if got := strings.Join(strings.Fields(lines[first+i]), " "); !strings.HasPrefix(got, want) {
					t.Errorf("line %d: %q, want it to start %q", i, got, want)
				}
			}
			if next := lines[first+len(c.want)]; strings.Contains(next, " ok ") && strings.HasPrefix(next, " ") {
				t.Errorf("a slow read named past the %d wanted: %q", len(c.want), next)
			}
		})
	}
}
