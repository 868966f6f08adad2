package client

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// TestSubscribeServerEverything subscribes to
// @modelcontextprotocol/server-everything (pinned in peers/, the
// TypeScript SDK's reference server) over stdio: its
// toggle-subscriber-updates tool makes it announce a change of every uri
// the session subscribed to, at once and every 5 s. After the unsubscribe
// it announces none (one period is waited for).
func TestSubscribeServerEverything(t *testing.T) {
	node := needs.Tool(t, "node", "apt-get install nodejs npm (then make deps)")
	mods, err := filepath.Abs("../peers/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	entry := needs.File(t, filepath.Join(mods, "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		"@modelcontextprotocol/server-everything", "make deps (it runs npm ci in peers/)")
	s := connectSub(t, targets.Target{Kind: targets.Stdio, Argv: []string{node, entry, "stdio"}}, "auto")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const uri = "demo://resource/dynamic/text/1"
	c := newCollector()
	sub, err := s.Subscribe(ctx, SubscribeSpec{URIs: []string{uri}}, c.on)
	if err != nil {
		t.Fatalf("Subscribe (%s): %v", s.ProtocolVersion(), err)
	}
	if sent, ack := sub.AckTimes(); !ack.After(sent) {
		t.Errorf("ack at %v, sent at %v", ack, sent)
	}
	var res map[string]any
	if err := s.Call(ctx, protocol.MethodToolsCall, map[string]any{"name": "toggle-subscriber-updates", "arguments": map[string]any{}}, &res); err != nil {
		t.Fatal(err)
	}
	if n := c.await(t, protocol.NotifyResourceUpdated, uri, 15*time.Second); n.Flags != 0 {
		t.Errorf("flags %s", n.Flags)
	}
	if err := sub.Close(ctx); err != nil {
		t.Fatal(err)
	}
	before := len(c.all())
	time.Sleep(5500 * time.Millisecond) // one period of its updates
	if after := c.all(); len(after) != before {
		t.Errorf("delivered after Close: %+v", after[before:])
	}
	if u := s.Unrouted(); u.NoSubscription != 0 {
		t.Errorf("Unrouted = %+v: the server kept announcing after the unsubscribe", u)
	}
}
