// Package contract is `readbench check`: a target's read contract checked
// before it is loaded, so that a load run never measures a server that
// answers the wrong thing fast. It opens one session through package
// client and checks the handshake and server info, the capabilities the
// server declared (a missing one makes its rows "n/a"), resources/list, the
// shape of sampled reads, the error codes for unknown and malformed URIs,
// cancellation (by notification, sent once the request is on the
// server's side and judged by the answer's first byte against the moment
// the server had the cancel — over stdio, when it read it off its stdin,
// client.Session.Delivered — and the round trip; or by closing the stream
// on 2026-07-28 HTTP) and the ranged read tool where offered. For a
// range+http target (plain HTTP documents, no MCP) it checks the ranged
// read over HTTP instead (files.go): Content-Range arithmetic, eof by the
// last byte, the content type, HEAD, 416 past the end, directory and
// symlink refused.
//
// It opens the target with client.Open and checks what it opened to: a
// client.Session (Read, Call, Paginate, NewRequest, Do, Cancel, Delivered,
// Capabilities, PerRequestStream, ReadTool, whose answer the client
// decodes as a ranged read does) or client.Documents (Get, Head), never a
// concrete transport.
// The probes that name sim: URIs are used when the server advertised that
// it serves any (client.Conn.SimURIs), whatever its name.
// Its Findings are plain data; the result document and its renderers live in
// results and report. It must never import driver or simserver.
package contract
