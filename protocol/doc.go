// Package protocol is the MCP wire vocabulary that the client that
// measures and the simulated server that is measured share: versions and
// eras, method and header names, error codes, JSON-RPC envelopes and the
// two framings, and the few rules both sides must apply alike (the JSON
// grammar every reader of JSON bytes in readbench follows, which hosts are
// loopback).
//
// It holds words, framing and those shared rules only, never behaviour:
// the client and the simulated server must not import each other, so that
// a client measuring a server shares nothing with it but what the
// specification says.
package protocol
