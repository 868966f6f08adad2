package client

import (
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestWordedMissing: a -32601 answer to resources/read is method_not_found
// whatever it says, and is marked WordedMissing when its message says the
// resource is missing and names no method (fastmcp 4.20.16's "Resource not
// found: 'URI'"): the run settles those. The SDKs' "Method not found",
// mcp-go's "resources not supported", a tool call's -32601 and any other
// code are never marked.
func TestWordedMissing(t *testing.T) {
	const fastmcp = "MCP error -32601: Resource not found: 'doc://no/such'. Available resources: doc://text/1k, doc://blob/4k"
	for _, c := range []struct {
		code int
		msg  string
		ctx  errorContext
		want stats.Outcome
		mark bool
	}{
		{-32601, fastmcp, legacyRead, stats.MethodNotFound, true},
		{-32601, fastmcp, modernRead, stats.MethodNotFound, true},
		{-32601, "Unknown resource: docs://x", legacyRead, stats.MethodNotFound, true},
		{-32601, "no such document", legacyRead, stats.MethodNotFound, true},
		{-32601, fastmcp, toolCall, stats.MethodNotFound, false}, // tools/call's -32601: the method of the read tool
		{-32601, "Method not found", legacyRead, stats.MethodNotFound, false},
		{-32601, "MCP error -32601: Method not found", modernRead, stats.MethodNotFound, false},
		{-32601, "method resources/read not found", legacyRead, stats.MethodNotFound, false},
		{-32601, "resources not supported", legacyRead, stats.MethodNotFound, false},
		{-32601, "", legacyRead, stats.MethodNotFound, false},
		{-32601, "Resource not found: 'doc://method/x'", legacyRead, stats.MethodNotFound, false}, // reads as the method's: the code's outcome kept
		{-32602, "Resource not found: docs://x", legacyRead, stats.NotFound, false},
		{-32002, "Resource not found", legacyRead, stats.NotFound, false},
	} {
		var a Answer
		a.WordedMissing = true // decide sets it afresh for each answer
		a.decide(ending{rpc: true, code: c.code, message: c.msg, answered: c.ctx})
		if a.Outcome != c.want || a.WordedMissing != c.mark {
			t.Errorf("decide(JSON-RPC %d, %q, %d) = %v, worded missing %v; want %v, %v", c.code, c.msg, c.ctx, a.Outcome, a.WordedMissing, c.want, c.mark)
		}
	}
}
