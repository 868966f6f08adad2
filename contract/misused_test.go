package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
)

// TestNotFoundMisusedCode: the not-found row fails a -32601 (Method not
// found) answer to a URI that cannot exist, and names the misuse of the
// code only when the message says the resource is missing (fastmcp
// 4.20.16's "Resource not found: 'URI'") from a server whose sampled
// reads it answered: such a server implements resources/read. A server
// that answers every read so, or whose -32601 says "Method not found",
// fails the row as before, without the misuse named.
func TestNotFoundMisusedCode(t *testing.T) {
	const fastmcp = "MCP error -32601: Resource not found: 'docs://guide/readbench-check/no-such-resource-7f3a9c'. Available resources: docs://guide/page.md"
	for _, c := range []struct {
		name    string
		srv     misusingServer
		misused bool
		detail  string
	}{
		{"worded as missing, reads served", misusingServer{message: fastmcp}, true,
			`error -32601 "MCP error -32601: Resource not found: 'docs://guide/readbench-check/no-such-resource-7f3a9c'. Available resources: docs:…"; ` +
				misusedCode + ", yet it answered 1 sampled read; a " + protocol.LatestLegacy + " server answers -32002"},
		{"Method not found, reads served", misusingServer{message: "Method not found"}, false,
			`error -32601 "Method not found"; a ` + protocol.LatestLegacy + " server answers -32002"},
		{"worded as missing, no read served", misusingServer{message: fastmcp, all: true}, false,
			"; a " + protocol.LatestLegacy + " server answers -32002"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			url := peertest.ServeLocal(t, &c.srv).URL + "/mcp"
			rep, err := Check(ctx, Options{Target: targets.Target{Kind: targets.HTTP, Address: url}})
			if err != nil {
				t.Fatal(err)
			}
			rows := 0
			for _, r := range rep.Checks {
				t.Logf("%-24s %-4s %s %s", r.Name, r.Status, r.URI, r.Detail)
				if r.Name != "not-found error" {
					continue
				}
				rows++
				if r.Status != results.CheckFail || !strings.Contains(r.Detail, c.detail) || strings.Contains(r.Detail, misusedCode) != c.misused {
					t.Errorf("not-found error: %s %q; want fail with %q, the misuse named: %v", r.Status, r.Detail, c.detail, c.misused)
				}
			}
			if rows != 1 {
				t.Errorf("%d not-found rows, want 1", rows)
			}
		})
	}
}

// misusingServer is rpcServer with its resources/read answered -32601
// with message: for every URI but the listed one, or, with all, for every
// URI (a server whose reads never succeed). The Go SDK cannot send it: it
// words a -32601 of its own.
type misusingServer struct {
	message string
	all     bool
}

func (m *misusingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) == nil && req.Method == protocol.MethodResourcesRead && (m.all || req.Params.URI != "docs://guide/page.md") {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": protocol.Error{Code: protocol.CodeMethodNotFound, Message: m.message}})
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	(&rpcServer{caps: json.RawMessage(`{"resources":{}}`), read: readOK}).ServeHTTP(w, r)
}
