// Package driver fires resources/read turns at an MCP target and records
// what happened. Four concerns, kept apart so each can be tested alone:
//
//   - transports move JSON-RPC messages (stdio child processes, Streamable
//     HTTP, the 2024-11-05 HTTP+SSE) and implement cancellation the way
//     each transport and era says;
//   - a session owns the era (2026-07-28 stateless or the legacy
//     handshake), request ids and the per-request _meta and headers;
//   - the read check scans each answer's bytes once (never decoding a
//     blob into Go values) for outcome, sizes and shape;
//   - the scheduler decides when turns start (open model: from the
//     intended start, so a stalled generator cannot hide latency) and the
//     runner combines it with max_in_flight and the sessions.
package driver
