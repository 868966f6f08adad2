package driver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload/yamlfile"
)

// TestUnreachedReadsNameNoTrace (issue 47, item 13): a read that never
// reached the server — its connection refused — names no trace id and
// no span id, and is marked unreached; every kept read that names a
// trace names one the server received, with its own span id. The
// server is the official Go SDK's, its trace context extracted by
// OpenTelemetry's propagator; it stops listening once its first read
// arrives, and load.keep_alive: false makes every later read dial anew
// and be refused (127.0.0.1, nothing listening). One read a turn, 200 ms
// apart: a read dialled while the first was on its way (two of a turn)
// could be taken by the kernel's backlog before the listener closed and
// then reset, a read sent that may have reached a server, rightly not
// marked unreached.
func TestUnreachedReadsNameNoTrace(t *testing.T) {
	for _, c := range []struct {
		name, protocol string
	}{
		{"2026-07-28", "auto"},
		{"2025-11-25", protocol.V20251125},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, rec := peertest.TracingSDKServer(0)
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
			var stop sync.Once
			var closeListener func()
			hs := peertest.ServeLocal(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				if bytes.Contains(body, []byte(`"resources/read"`)) {
					stop.Do(closeListener) // this read is served; the next dial is refused
				}
				h.ServeHTTP(w, r)
			}))
			closeListener = func() { hs.Listener.Close() }
			w, err := yamlfile.Parse("unreached.yaml", []byte(fmt.Sprintf(`
target: %q
protocol: %q
load: {rate: 5/s, turns: 4, keep_alive: false}
turn: {attachments: 1, read_timeout: 10s}
mix:
  - {class: docs, uri: %q}
`, hs.URL, c.protocol, peertest.Docs()[0].URI)))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			m, err := measure(ctx, Options{Workload: w})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[[2]string]bool{}
			for _, s := range rec.Seen() {
				seen[[2]string{s.Meta.TraceID().String(), s.Meta.SpanID().String()}] = true
			}
			slow := m.MeasuredPhase.Classes[0].Slow
			unreached := 0
			for _, r := range append(slow.Slowest, slow.Broke...) {
				switch {
				case r.Outcome == stats.Transport:
					if r.TraceID != "" || r.SpanID != "" || !r.Unreached {
						t.Errorf("a refused read names trace %q span %q (unreached %v): no server received them", r.TraceID, r.SpanID, r.Unreached)
					}
					unreached++
				case r.Unreached:
					t.Errorf("a read answered %s is marked unreached", r.Outcome)
				case !seen[[2]string{r.TraceID, r.SpanID}]:
					t.Errorf("read %s names trace %q span %q, which the server did not see", r.Outcome, r.TraceID, r.SpanID)
				}
			}
			if unreached == 0 {
				t.Fatalf("outcomes %v, slowest %+v: no refused read kept", m.MeasuredPhase.Outcomes, slow.Slowest)
			}
		})
	}
}
