package contract

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
)

func TestJudgeRange(t *testing.T) {
	want := []byte("abcd")
	cases := []struct {
		why    string
		ta     client.ToolPart
		eof    bool
		status results.CheckStatus
		detail string
	}{
		{"exact bytes and eof", client.ToolPart{Data: want, EOF: true}, true, results.CheckPass, "4 bytes, eof true"},
		{"eof must be false before the end", client.ToolPart{Data: want, EOF: true}, false, results.CheckFail, "eof true, want false"},
		{"short answer", client.ToolPart{Data: want[:2]}, false, results.CheckFail, "2 bytes, want 4"},
		{"other bytes", client.ToolPart{Data: []byte("abce")}, false, results.CheckFail, "differ"},
		{"an error where bytes were due", client.ToolPart{IsError: true, Code: "internal"}, false, results.CheckFail, `code "internal"`},
	}
	for _, c := range cases {
		st, d := judgeRange(c.ta, nil, want, c.eof)
		if st != c.status || !strings.Contains(d, c.detail) {
			t.Errorf("%s: %s %q", c.why, st, d)
		}
	}
}

func TestNotFoundURI(t *testing.T) {
	cases := []struct{ listed, want string }{
		{"demo://resource/static/document/a.md", "demo://resource/readbench-check/no-such-resource-7f3a9c"},
		{"file:///repo/a.png", "file:///readbench-check/no-such-resource-7f3a9c"},
		{"urn:isbn:123", "urn:readbench-check/no-such-resource-7f3a9c"},
		{"", "docs://readbench-check/no-such-resource-7f3a9c"},
	}
	for _, c := range cases {
		ch := &checker{}
		if c.listed != "" {
			ch.listed = []contractResource{{URI: c.listed}}
		}
		if got := ch.notFoundURI(); got != c.want {
			t.Errorf("listed %q: probe %q, want %q", c.listed, got, c.want)
		}
	}
	if got := (&checker{sim: true, listed: []contractResource{{URI: "sim:///a"}}}).notFoundURI(); strings.HasPrefix(got, "sim:") {
		t.Errorf("the simulated server serves every sim: URI; probe %q", got)
	}
}

// TestCheckContractUnreachable: a target that cannot be started is a
// failed handshake with every other check skipped, not an error.
func TestCheckContractUnreachable(t *testing.T) {
	rep, err := Check(context.Background(), Options{
		Target: targets.Target{Kind: targets.Stdio, Argv: []string{"/nonexistent/readbench-no-such-server"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Failed() || rep.Checks[0].Name != "handshake" || rep.Checks[0].Status != results.CheckFail {
		t.Fatalf("checks %+v", rep.Checks)
	}
	for _, c := range rep.Checks[1:] {
		if c.Status != results.CheckSkip || c.Detail == "" {
			t.Errorf("after a failed handshake %q is %s (%q), want skip with a reason", c.Name, c.Status, c.Detail)
		}
	}
}

// TestCheckContractSDKPeer checks the Go SDK's server, stateless over
// Streamable HTTP (so 2026-07-28): its listed resources are well formed,
// it answers -32602 for an unknown URI and it has no read tool. Its reads
// take 2 ms, but the 200 KB one may take more than 50 ms under -race:
// then it is cancelled, and over 2026-07-28 HTTP that passes by
// construction.
func TestCheckContractSDKPeer(t *testing.T) {
	url := peertest.StartSDKHTTP(t, &mcp.StreamableHTTPOptions{Stateless: true})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := Check(ctx, Options{Target: targets.Target{Kind: targets.HTTP, Address: url}})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string][]results.CheckStatus{}
	for _, c := range rep.Checks {
		status[c.Name] = append(status[c.Name], c.Status)
		t.Logf("%-16s %-4s %s %s", c.Name, c.Status, c.URI, c.Detail)
	}
	if rep.Server.Name != "sdk-peer" || rep.ProtocolVersion == "" {
		t.Errorf("server %+v, protocol %q", rep.Server, rep.ProtocolVersion)
	}
	want := map[string]results.CheckStatus{"handshake": results.CheckPass, "server info": results.CheckPass, "resources/list": results.CheckPass,
		"read tool": results.CheckNA, "capabilities": results.CheckPass}
	if got := status["cancellation"]; len(got) != 1 || got[0] == results.CheckFail {
		t.Errorf("cancellation: %v", got)
	}
	if rep.Modern {
		want["not-found error"] = results.CheckPass
	}
	for name, st := range want {
		if len(status[name]) != 1 || status[name][0] != st {
			t.Errorf("%s: %v, want %s", name, status[name], st)
		}
	}
	if got := status["read"]; len(got) != len(peertest.Docs()) {
		t.Errorf("read rows %v, want one per listed resource (%d)", got, len(peertest.Docs()))
	}
	for _, st := range status["read"] {
		if st != results.CheckPass {
			t.Errorf("read rows %v", status["read"])
			break
		}
	}
}
