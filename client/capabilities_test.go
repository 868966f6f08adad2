package client

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

func TestCapabilitiesDeclared(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want Capabilities
	}{
		{``, Capabilities{}},
		{`null`, Capabilities{}},
		{`{}`, Capabilities{Known: true}},
		{`{"tools":{}}`, Capabilities{Known: true, Tools: true}},
		{`{"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":false}}`,
			Capabilities{Known: true, Resources: true, Subscribe: true, ListChanged: true, Tools: true}},
		{`{"resources":{}}`, Capabilities{Known: true, Resources: true}},
		{`{"resources":null,"tools":false}`, Capabilities{Known: true}},
		{`{"resources":{"subscribe":"yes"}}`, Capabilities{Known: true, Resources: true}}, // odd flags never fail
	} {
		if got := (serverCapabilities{raw: []byte(c.raw)}).declared(); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.raw, got, c.want)
		}
	}
}

// TestOnAcceptedBeforeTheAnswer: on each transport whose cancel is a
// notification, a request's OnAccepted hook is told once the request is on
// the server's side, which is before its answer (over HTTP the read takes
// 300 ms),
// and the session knows the capabilities the server declared.
func TestOnAcceptedBeforeTheAnswer(t *testing.T) {
	srv := peertest.SDKServer(300 * time.Millisecond)
	stateful := peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)).URL + "/mcp"
	sse := peertest.ServeLocal(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)).URL
	for name, tg := range map[string]targets.Target{
		"stdio": {Kind: targets.Stdio, Argv: peertest.Command(t, peertest.SDKStdio)},
		"http":  {Kind: targets.HTTP, Address: stateful},
		"sse":   {Kind: targets.SSE, Address: sse},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, _, err := Connect(ctx, Dial{Target: tg, Protocol: protocol.LatestLegacy})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if c := s.Capabilities(); !c.Known || !c.Resources || c.Tools {
				t.Errorf("capabilities %+v, want resources and no tools", c)
			}
			uri := peertest.Docs()[0].URI
			req, err := s.NewRequest(protocol.MethodResourcesRead, uri, map[string]any{"uri": uri})
			if err != nil {
				t.Fatal(err)
			}
			accepted := make(chan time.Time, 2)
			a, err := s.Do(ctx, req.OnAccepted(func(at time.Time) { accepted <- at }))
			if err != nil {
				t.Fatal(err)
			}
			if len(accepted) != 1 {
				t.Fatalf("the hook was told %d times, want once", len(accepted))
			}
			at := <-accepted
			if at.Before(a.Sent) || !at.Before(a.Done) {
				t.Errorf("accepted %v after the send, answer done %v after", at.Sub(a.Sent), a.Done.Sub(a.Sent))
			}
			if !a.FirstByte.IsZero() && at.After(a.FirstByte) {
				t.Errorf("accepted %v after the answer's first byte", at.Sub(a.FirstByte))
			}
			if name != "stdio" && a.Done.Sub(at) < 200*time.Millisecond { // the stdio peer's reads take 2 ms
				t.Errorf("accepted only %v before the answer of a 300 ms read", a.Done.Sub(at))
			}
			if name != "http" && a.FirstByte.IsZero() {
				t.Error("no first byte on a shared stream")
			}
		})
	}
}
