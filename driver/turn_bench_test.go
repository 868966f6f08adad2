package driver

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// BenchmarkTurnHTTP is the generator's whole cost of a turn of 1 KiB text
// reads over plain HTTP (the plan, the read, the classification, the
// recording), 16 reads in flight on one session, against a server that
// costs next to nothing (peertest.Canned), per read: a turn of one read
// without a deadline, the same with a turn deadline (never reached), and
// four reads a turn with one (the default scenario's shape). ns/read is
// wall time per read with the server in the same process, to compare the
// three: a deadline is the read's own deadline and costs next to nothing
// (docs/measurement.md, turns). Each turn's reads must keep their
// connections: the benchmark fails if they do not.
func BenchmarkTurnHTTP(b *testing.B) {
	const uri = "sim:///compare/text.md?mime=text/markdown&size=1024"
	answer := fmt.Appendf(nil,
		`{"resultType":"complete","ttlMs":0,"cacheScope":"public","contents":[{"uri":%q,"mimeType":"text/markdown","text":%q}]}`,
		uri, strings.Repeat("lorem ipsum ", 1024/12))
	url := peertest.Canned(b, answer)
	for _, c := range []struct {
		name        string
		attachments int
		deadline    string
		trace       string // load.trace_sample ("": the default, every turn traced)
	}{
		{"1-read", 1, "", ""},
		{"1-read-deadline", 1, ", deadline: 5s", ""},
		{"4-reads-deadline", 4, ", deadline: 5s", ""},
		{"4-reads-deadline-untraced", 4, ", deadline: 5s", ", trace_sample: 0"},
	} {
		b.Run(c.name, func(b *testing.B) {
			w, err := yamlfile.Parse("bench.yaml", []byte(fmt.Sprintf(`
name: bench
target: %q
protocol: 2026-07-28  # the canned server answers reads only: no era to detect
sessions: 1
load: {model: closed, concurrency: 1, duration: 1h%s}
turn: {attachments: %d, read_timeout: 10s%s}
mix:
  - {class: c, uri: %q}
`, url, c.trace, c.attachments, c.deadline, uri)))
			if err != nil {
				b.Fatal(err)
			}
			r := &runner{w: w, tracing: newTracing(w), measured: stats.NewRecorder([]stats.ClassInfo{{Name: "c"}}), warmup: stats.NewRecorder(nil), begun: make(chan struct{}, 1)}
			ctx := context.Background()
			if r.conns, err = r.dial(ctx); err != nil {
				b.Fatal(err)
			}
			defer closeAll(r.conns)
			if r.plan, err = workload.NewSamplingWith(w, workload.SamplingOptions{}); err != nil {
				b.Fatal(err)
			}
			var turn atomic.Uint64
			b.SetParallelism(8 / c.attachments) // 16 reads in flight on 2 cores
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r.inFlight.Add(1)
					r.turns.Add(1)
					r.runTurn(ctx, turn.Add(1)-1, time.Now(), false)
				}
			})
			b.StopTimer()
			run := r.measured.Phase()
			reads := run.Outcomes.Total()
			if ok := run.Outcomes[stats.OK]; ok != reads {
				b.Fatalf("%d of %d reads ok: %v", ok, reads, run.Outcomes.Map())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(reads), "ns/read")
			st, _ := r.conns[0].Connections()
			if st.Opened > 32 || st.ClosedByCut+st.ClosedByServer+st.ClosedByClient > 0 {
				b.Fatalf("connections %+v for %d reads: a turn's reads must keep their connections", st, reads)
			}
		})
	}
}
