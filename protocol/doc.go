// Package protocol is the MCP wire vocabulary that the driver (the client that
// measures) and the simulated server (the thing measured) share: protocol
// versions and eras, method names, HTTP header names, error codes, _meta keys,
// JSON-RPC envelopes and the two framings (newline-delimited stdio and SSE),
// JSON strings in the style each side writes (AppendString), the JSON
// grammar every reader of JSON bytes in readbench follows (grammar.go:
// the client's answer scanner as the server's request decoder), and the
// one rule both sides apply to origins: which hosts are loopback
// (IsLoopbackHost).
//
// It holds words, framing and those shared rules only, never behaviour: the
// driver and the simulated server must not import each other, so that a
// client measuring a server shares nothing with it but what the
// specification says.
package protocol
