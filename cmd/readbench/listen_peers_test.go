package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/internal/peertest"
)

// `readbench run` with listeners and changes against servers no one here
// wrote, in both eras and over each transport they offer (issue 43): the
// official Go SDK v1.8.0 (2026-07-28 subscriptions/listen and its legacy
// SubscribeHandler), mcp-go (legacy resources/subscribe), the official
// TypeScript SDK (legacy, peers/sdk-subscribe.mjs) and server-everything
// (its own updates of what a session subscribed to). A change is a tool
// of the server's: one the test registers (the Go SDK and mcp-go servers
// written here, scripts/sdkserver, testdata/mcpgosub, sdk-subscribe.mjs) or server-everything's
// toggle-subscriber-updates, which starts its own updates.

// subscriptions is the result's subscriptions block, as far as the tests
// look at it.
type subscriptions struct {
	Mode      string
	Listeners struct{ Asked, Connected, Failed, Listening int64 }
	Streams   struct {
		Asked, Opened, Failed int64
		NotApplicable         int64 `json:"not_applicable"`
	}
	Changes struct {
		Via          string
		Made, Failed int64
	}
	Notifications struct {
		Received, Expected, Notified, Coalesced, Missed int64
		Duplicates, Spontaneous, Unsubscribed, Unrouted int64
		IdentityOK                                      bool `json:"identity_ok"`
	}
	Violations  map[string]int64
	Ack, Notify latency
	Rereads     struct{ Made int64 }
}

// touchChanges are changes made with a server's touch {uri} tool, 4 a
// second.
const touchChanges = `{rate: 4/s, via: {tool: touch, args: {uri: "{uri}"}}}`

// touchLoad is the phases of a run with touchChanges: the listeners open
// during the warmup.
const touchLoad = "duration: 2s, warmup: 1s"

// nodeStdioLoad is touchLoad for a Node server over stdio, which readbench
// starts once per listener during the warmup: Node and the SDK took over
// 3 s to answer the handshake on a saturated CI machine.
const nodeStdioLoad = "duration: 2s, warmup: 8s"

// listeners is how many listeners every run opens.
const listeners = 3

// listenRun runs the binary against target with 3 listeners of uris
// (re-reading on every notification) and the changes section changes,
// load giving the phases (duration and warmup), and returns the subscriptions block
// and the ok reads of the read class reread.
func listenRun(t *testing.T, target, protocol string, uris []string, changes, load string) (subscriptions, int64) {
	t.Helper()
	dir := t.TempDir()
	quoted := make([]string, len(uris))
	for i, u := range uris {
		quoted[i] = fmt.Sprintf("%q", u)
	}
	y := fmt.Sprintf(`
name: listen-peer
target: %q
protocol: %s
sessions: 1
load: {rate: 2/s, %s}
turn: {attachments: 1, read_timeout: 30s}
mix:
  - {class: doc, uri: %s}
listen: {listeners: %d, uris: [%s], reread: {on: true, honour_ttl: false}}
changes: %s
`, target, protocol, load, quoted[0], listeners, strings.Join(quoted, ", "), changes)
	wl := filepath.Join(dir, "listen.yaml")
	if err := os.WriteFile(wl, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := readbench(t, dir, "run", wl, "--out", "r.json", "--quiet", "--no-live")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	raw := rawResult(t, filepath.Join(dir, "r.json"))
	data, err := json.Marshal(raw["subscriptions"])
	if err != nil {
		t.Fatal(err)
	}
	var s subscriptions
	if err := json.Unmarshal(data, &s); err != nil || s.Mode == "" {
		t.Fatalf("subscriptions block %s: %v", data, err)
	}
	var rereadOK int64
	for _, c := range r.Classes {
		if c.Class == "reread" {
			rereadOK = c.Outcomes["ok"]
		}
	}
	return s, rereadOK
}

// checkListen asserts what a run against a correct server shows: every
// listener listening in mode, the accounting identity written out, no
// notification missed and no violation, an ack latency per stream, a
// notification latency per notification, and re-reads made and read.
func checkListen(t *testing.T, s subscriptions, rereadOK int64, mode string) {
	t.Helper()
	n := s.Notifications
	if s.Mode != mode || s.Listeners.Listening != listeners || s.Streams.Opened < listeners || s.Streams.Failed != 0 {
		t.Errorf("mode %q, listeners %+v, streams %+v: want %s with %d listening", s.Mode, s.Listeners, s.Streams, mode, listeners)
	}
	if s.Changes.Made == 0 || s.Changes.Failed != 0 {
		t.Errorf("changes %+v", s.Changes)
	}
	if !n.IdentityOK || n.Expected != n.Notified+n.Coalesced+n.Missed || n.Expected == 0 {
		t.Errorf("identity: %+v", n)
	}
	if n.Missed != 0 || n.Duplicates != 0 || n.Unsubscribed != 0 {
		t.Errorf("a correct server missed or duplicated: %+v", n)
	}
	for k, v := range s.Violations {
		if v != 0 {
			t.Errorf("violation %s: %d", k, v)
		}
	}
	if s.Ack.Count != s.Streams.Opened || s.Ack.P50 <= 0 || s.Ack.HDR == "" {
		t.Errorf("ack latency %+v for %d streams", s.Ack, s.Streams.Opened)
	}
	if s.Notify.Count != n.Notified+n.Coalesced || s.Notify.P50 <= 0 || s.Notify.HDR == "" {
		t.Errorf("notify latency %+v for %d notified and %d coalesced", s.Notify, n.Notified, n.Coalesced)
	}
	if s.Rereads.Made == 0 || rereadOK == 0 {
		t.Errorf("re-reads made %d, read ok %d", s.Rereads.Made, rereadOK)
	}
}

// watched are the resources of the Go servers written here.
func watched() []string { return []string{"docs://watched/a", "docs://watched/b"} }

// goSDKServer is the Go SDK's server with watched, subscriptions in both
// eras and touch {uri}, which announces a change with Server.ResourceUpdated.
func goSDKServer() *mcp.Server {
	return peertest.SDKSubscribeServer("go-sdk-listen-peer", watched()...)
}

// TestListenGoSDK: the official Go SDK v1.8.0 over Streamable HTTP
// (2026-07-28 stateless subscriptions/listen; 2025-11-25 stateful
// resources/subscribe), HTTP+SSE (2024-11-05) and stdio in both eras
// (scripts/sdkserver, the SDK's server with a touch tool of ours).
func TestListenGoSDK(t *testing.T) {
	t.Parallel()
	sdkserver := filepath.Join(t.TempDir(), "sdkserver")
	if out, err := exec.Command("go", "build", "-o", sdkserver, "../../scripts/sdkserver").CombinedOutput(); err != nil {
		t.Fatalf("go build sdkserver: %v\n%s", err, out)
	}
	stdioURIs := []string{"docs://sdk/1", "docs://sdk/2"}
	for _, c := range []struct {
		name, protocol, mode string
		target               func(t *testing.T) string
		uris                 []string
	}{
		{"http 2026", "2026-07-28", "listen", func(t *testing.T) string {
			srv := goSDKServer()
			return peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})).URL + "/mcp"
		}, watched()},
		{"http legacy", "2025-11-25", "subscribe", func(t *testing.T) string {
			srv := goSDKServer()
			return peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)).URL + "/mcp"
		}, watched()},
		{"sse legacy", "auto", "subscribe", func(t *testing.T) string {
			srv := goSDKServer()
			return "sse+" + peertest.ServeLocal(t, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)).URL
		}, watched()},
		{"stdio 2026", "2026-07-28", "listen", func(*testing.T) string { return "stdio:" + sdkserver + " --delay 1ms" }, stdioURIs},
		{"stdio legacy", "2025-11-25", "subscribe", func(*testing.T) string { return "stdio:" + sdkserver + " --delay 1ms" }, stdioURIs},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, ok := listenRun(t, c.target(t), c.protocol, c.uris, touchChanges, touchLoad)
			checkListen(t, s, ok, c.mode)
		})
	}
}

// mcpGoServer is mcp-go's server with watched, legacy subscriptions and
// touch {uri}: mcp-go's subscribe handler keeps no subscribers, so a
// change is sent to every session (SendNotificationToAllClients), which
// is right here because every listener subscribes to every uri.
func mcpGoServer() *mcpgoserver.MCPServer {
	srv := mcpgoserver.NewMCPServer("mcpgo-listen-peer", "1.0.0", mcpgoserver.WithResourceCapabilities(true, false), mcpgoserver.WithToolCapabilities(false))
	for _, u := range watched() {
		srv.AddResource(mcpgo.NewResource(u, u, mcpgo.WithMIMEType("text/plain")), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: u, MIMEType: "text/plain", Text: "v"}}, nil
		})
	}
	srv.AddTool(mcpgo.NewTool("touch", mcpgo.WithString("uri", mcpgo.Required())), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		uri := req.GetString("uri", "")
		srv.SendNotificationToAllClients("notifications/resources/updated", map[string]any{"uri": uri})
		return mcpgo.NewToolResultText("ok"), nil
	})
	return srv
}

// TestListenMCPGo: mcp-go (legacy resources/subscribe) over Streamable
// HTTP, its sessions' GET stream, over HTTP+SSE and over stdio
// (testdata/mcpgosub, the same server as a program of its own).
func TestListenMCPGo(t *testing.T) {
	t.Parallel()
	stdio := filepath.Join(t.TempDir(), "mcpgosub")
	if out, err := exec.Command("go", "build", "-o", stdio, "./testdata/mcpgosub").CombinedOutput(); err != nil {
		t.Fatalf("go build mcpgosub: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name, protocol string
		target         func(t *testing.T) string
	}{
		{"http legacy", "2025-11-25", func(t *testing.T) string {
			return peertest.ServeLocal(t, mcpgoserver.NewStreamableHTTPServer(mcpGoServer())).URL + "/mcp"
		}},
		{"sse legacy", "auto", func(t *testing.T) string {
			return "sse+" + peertest.ServeLocal(t, mcpgoserver.NewSSEServer(mcpGoServer())).URL + "/sse"
		}},
		{"stdio legacy", "2025-11-25", func(*testing.T) string { return "stdio:" + stdio }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, ok := listenRun(t, c.target(t), c.protocol, watched(), touchChanges, touchLoad)
			checkListen(t, s, ok, "subscribe")
		})
	}
}

// TestListenTypeScriptSDK: the official TypeScript SDK
// (peers/sdk-subscribe.mjs, legacy resources/subscribe) over stdio,
// stateful Streamable HTTP and HTTP+SSE, on 127.0.0.1.
func TestListenTypeScriptSDK(t *testing.T) {
	t.Parallel()
	node := needs.Tool(t, "node", installNode)
	npmPeer(t, "@modelcontextprotocol/sdk", "@modelcontextprotocol", "sdk", "package.json")
	peer, err := filepath.Abs("../../peers/sdk-subscribe.mjs")
	if err != nil {
		t.Fatal(err)
	}
	uris := []string{"doc://watched/a", "doc://watched/b"}
	for _, c := range []struct {
		name, load string
		target     func(t *testing.T) string
	}{
		{"stdio", nodeStdioLoad, func(*testing.T) string { return "stdio:" + node + " " + peer + " stdio" }},
		{"http", touchLoad, func(t *testing.T) string { return startHTTPPeer(t, node, peer, "http", "{port}") }},
		{"sse", touchLoad, func(t *testing.T) string {
			return "sse+" + strings.TrimSuffix(startHTTPPeer(t, node, peer, "sse", "{port}"), "/mcp") + "/sse"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, ok := listenRun(t, c.target(t), "auto", uris, touchChanges, c.load)
			checkListen(t, s, ok, "subscribe")
		})
	}
}

// TestListenServerEverything: @modelcontextprotocol/server-everything
// over stdio (legacy resources/subscribe) sends updates of what a session
// subscribed to on its own once its toggle-subscriber-updates tool is
// called: at once, then every 5 s. The one change of the run is that
// call, made on every listener's server at the measured phase's start,
// once node started them all and they subscribed (a warmup of 5 s); each
// listener is told within the run, which ends before the next period.
func TestListenServerEverything(t *testing.T) {
	t.Parallel()
	entry := serverEverything(t)
	s, ok := listenRun(t, "stdio:node "+entry+" stdio", "auto", []string{"demo://resource/dynamic/text/1"},
		`{rate: 1/s, via: {tool: toggle-subscriber-updates, args: {}}}`, "duration: 1s, warmup: 5s")
	checkListen(t, s, ok, "subscribe")
	if s.Changes.Made != 1 || s.Notifications.Notified != listeners {
		t.Errorf("changes %+v, notifications %+v: want one toggle, each listener told once", s.Changes, s.Notifications)
	}
}
