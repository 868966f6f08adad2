// Package client is the MCP client readbench measures with. What it owns:
//
//   - transports (stdio.go, http.go, sse.go): stdio child processes,
//     Streamable HTTP (JSON or SSE answers, session ids renewed when they
//     expire) and the 2024-11-05 HTTP+SSE transport. Each moves JSON-RPC
//     messages and cancels a request the way its transport and era say;
//     the two that share one stream among many requests (stdio, HTTP+SSE)
//     match answers to callers with one table (calls.go), which also
//     remembers cancelled ids so that an answer sent anyway is counted as
//     late;
//   - the session (session.go, session_api.go, connect.go): the era
//     (the stateless 2026-07-28 or the handshake-era versions) detected as
//     the specification says, request ids, per-request _meta and headers,
//     listings walked page by page (Paginate);
//   - answer classification (classify.go): each resources/read answer is
//     scanned once, without decoding payloads into Go values, for its kind
//     (ok, not found, ... unusable), its sizes and its shape findings.
//
// It knows nothing of turns, rates, outcomes or reports: it imports only
// protocol (the wire vocabulary it shares with the simulated server),
// workload (for the target's address) and internal/bounded. It must never
// import driver, stats, results, report, contract or simserver. The load
// driver and the contract check are built on its exported Session, never
// on a concrete transport.
package client
