package driver

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// sdkWorkload reads every peertest.Docs() resource and one that does not exist.
func sdkWorkload(t *testing.T, target, proto string) *workload.Workload {
	t.Helper()
	y := fmt.Sprintf(`
name: sdk-peer
target: %q
protocol: %q
sessions: 2
seed: 7
load: {rate: 15/s, duration: 1s}
turn: {attachments: 3, read_timeout: 60s}  # correctness, not timing: no deadline to trip on a slow -race build
mix:
  - {class: md, uri: "docs://onboarding/engineering"}
  - {class: png, uri: "file:///repo/architecture.png"}
  - {class: unicode, uri: "docs://unicode"}
  - {class: missing, uri: "docs://team/renamed", expect: error, weight: 0.5}
`, target, proto)
	w, err := yamlfile.Parse("sdk.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// checkSDKRun asserts what every run against the SDK peer must show:
// the identity, only ok and expected outcomes, exact decoded sizes, the
// server's name and version, and the protocol version spoken.
func checkSDKRun(t *testing.T, rep *measurements, wantVersion string) {
	t.Helper()
	run := rep.MeasuredPhase
	if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Fatal(err)
	}
	if run.Scheduled < 40 {
		t.Fatalf("only %d reads scheduled", run.Scheduled)
	}
	if bad := run.Outcomes.Errors(); bad != 0 {
		for _, c := range run.Classes {
			t.Logf("class %s: %v", c.Name, c.Outcomes.Map())
		}
		t.Fatalf("%d reads failed: %v", bad, run.Outcomes.Map())
	}
	if run.Outcomes[stats.ExpectedError] == 0 {
		t.Errorf("the missing document never answered not-found: %v", run.Outcomes.Map())
	}
	for i, c := range run.Classes[:len(peertest.Docs())] {
		ok := c.Outcomes[stats.OK]
		if ok == 0 {
			t.Errorf("class %s: no reads", c.Name)
		}
		if want := ok * int64(peertest.Docs()[i].Size); c.DiskBytes != want {
			t.Errorf("class %s: disk bytes %d, want %d (%d reads of %d)", c.Name, c.DiskBytes, want, ok, peertest.Docs()[i].Size)
		}
	}
	png := run.Classes[1]
	if want := png.Outcomes[stats.OK] * stats.Base64Len(204802); png.Base64Bytes != want {
		t.Errorf("png base64 bytes %d, want %d", png.Base64Bytes, want)
	}
	if png.WireBytes <= png.Base64Bytes {
		t.Errorf("wire bytes %d not above base64 bytes %d", png.WireBytes, png.Base64Bytes)
	}
	if run.Shape != (stats.Shape{}) {
		t.Errorf("false shape alarms: %+v", run.Shape)
	}
	if rep.Meta.Target.Server.Name != "sdk-peer" || rep.Meta.Target.Server.Version != "9.9.9" {
		t.Errorf("server %+v", rep.Meta.Target.Server)
	}
	if rep.Meta.Target.ProtocolVersion != wantVersion {
		t.Errorf("protocol version %q, want %q", rep.Meta.Target.ProtocolVersion, wantVersion)
	}
}

func runSDK(t *testing.T, w *workload.Workload) *measurements {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, err := measure(ctx, Options{Workload: w, Client: client.Implementation{Name: "readbench-test", Version: "0"}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestRunAgainstSDKHTTP(t *testing.T) {
	cases := []struct {
		name, proto, want string
		opts              mcp.StreamableHTTPOptions
	}{
		{"stateless-json-auto", "auto", protocol.V20260728, mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}},
		{"stateful-sse-auto", "auto", protocol.V20251125, mcp.StreamableHTTPOptions{}}, // the SDK's stateful server lists only handshake versions in server/discover,
		{"stateful-sse-legacy", protocol.V20251125, protocol.V20251125, mcp.StreamableHTTPOptions{}},
		{"stateful-json-2025-06-18", protocol.V20250618, protocol.V20250618, mcp.StreamableHTTPOptions{JSONResponse: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url := peertest.StartSDKHTTP(t, &c.opts)
			checkSDKRun(t, runSDK(t, sdkWorkload(t, url, c.proto)), c.want)
		})
	}
}

func TestRunAgainstSDKStdio(t *testing.T) {
	exe := peertest.Command(t, peertest.SDKStdio)[0]
	for _, c := range []struct{ proto, want string }{
		{"auto", protocol.V20260728},
		{protocol.V20251125, protocol.V20251125},
	} {
		t.Run(c.proto, func(t *testing.T) {
			checkSDKRun(t, runSDK(t, sdkWorkload(t, "stdio:"+exe, c.proto)), c.want)
		})
	}
}

func TestRunAgainstSDKSSE(t *testing.T) {
	for _, c := range []struct{ proto, want string }{
		{"auto", protocol.V20241105}, // no server/discover probe over a legacy-only transport
		{protocol.V20250618, protocol.V20250618},
	} {
		t.Run(c.proto, func(t *testing.T) {
			t.Parallel() // correctness, not timing: peers may share the machine
			srv := peertest.SDKServer(2 * time.Millisecond)
			hs := peertest.ServeLocal(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil))
			checkSDKRun(t, runSDK(t, sdkWorkload(t, "sse+"+hs.URL+"/sse", c.proto)), c.want)
		})
	}
}

func TestSSERefusesModernVersion(t *testing.T) {
	srv := peertest.SDKServer(0)
	hs := peertest.ServeLocal(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	_, err := measure(context.Background(), Options{Workload: sdkWorkload(t, "sse+"+hs.URL+"/sse", protocol.V20260728)})
	if err == nil || !strings.Contains(err.Error(), "HTTP+SSE") {
		t.Fatalf("forcing 2026-07-28 over HTTP+SSE: err = %v, want an explanation", err)
	}
}

func TestRunServerDiesMidRunHTTP(t *testing.T) {
	srv := peertest.SDKServer(2 * time.Millisecond)
	hs := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	w := sdkWorkload(t, hs.URL, "auto")
	stop := time.AfterFunc(400*time.Millisecond, hs.Close)
	defer stop.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	rep, err := measure(ctx, Options{Workload: w})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 15*time.Second || rep.Meta.Partial {
		t.Fatalf("the run took %v (partial %v): a dead server must not hang it", el, rep.Meta.Partial)
	}
	run := rep.MeasuredPhase
	if err := stats.CheckIdentity(run.Scheduled, &run.Outcomes); err != nil {
		t.Fatal(err)
	}
	if run.Outcomes[stats.OK] == 0 || run.Outcomes[stats.Transport] == 0 {
		t.Errorf("outcomes %v: want reads ok before the death and transport failures after", run.Outcomes.Map())
	}
}
