// Package client is the MCP client readbench measures with. What it owns:
//
//   - transports (stdio.go, http.go with httppost.go and httpclient.go,
//     sse.go): stdio child processes
//     (each in a process group of its own, ended whole when its session
//     closes, and on Linux killed by the kernel should readbench die:
//     procgroup_*.go),
//     Streamable HTTP (JSON or SSE answers, session ids renewed when they
//     expire) and the 2024-11-05 HTTP+SSE transport. Each moves JSON-RPC
//     messages and cancels a request the way its transport and era say;
//     the two that share one stream among many requests (stdio, HTTP+SSE)
//     match answers to callers with one table (calls.go), which also
//     remembers cancelled ids so that an answer sent anyway is counted as
//     late;
//   - the session (session.go, session_api.go, connect.go): the era
//     (the stateless 2026-07-28 or the handshake-era versions) detected as
//     the specification says, what the server advertised (SimURIs: it
//     serves any sim: URI, learned from capabilities.experimental, never
//     from its name), request ids, per-request _meta and headers, listings
//     walked page by page (Paginate);
//   - reading a document (reader.go): one DocumentReader interface,
//     ReadDocument(ctx, uri, ReadSpec) → *Answer, chosen at connect
//     time from the target by Open, and the one public way to read a
//     document: the load, discovery and the contract check all read
//     through it. A *Session reads with one resources/read (read.go) or,
//     for a chunked spec, with the read tool in parts (readtool.go, whose
//     DecodeToolPart is the one decoding of the tool's answer); a
//     range+http target opens to *Documents, which reads with one GET or
//     Range requests (files.go, filesread.go). Every way ends in one
//     Answer (answer.go): outcome, code and the failure's own words
//     (Reason), timings (sent, first byte, first usable byte, done),
//     byte counts, parts, shape findings, digest, and why it failed;
//   - answer classification (answer.go, classify.go, scan*.go): the
//     outcome of every answer is decided in one function, Answer.decide,
//     from how the read ended (an ending: a JSON-RPC error by its code
//     and era, errorOutcome; a read tool's isError code; an HTTP status;
//     an exchange that got no answer; an answer that cannot be used),
//     straight into the run's vocabulary (stats.Outcome, with stats.Shape
//     and stats.ByteCounts), so nothing translates it. Each
//     resources/read answer is scanned once as it streams in, in pieces
//     through a fixed buffer per connection or per answer arriving
//     (httpread.go, ssestream.go, inbound.go), never held whole and never
//     decoded into Go values, for its outcome (ok, not found, ...
//     unusable), its sizes, its shape findings and, when asked
//     (ReadSpec.Digest), the SHA-256 of its decoded content;
//   - the bounds of every wait and every answer: one writer goroutine per
//     stdio session (stdiowrite.go), so a child that stops reading blocks
//     no caller past its context, and on Linux the moment a stdio child
//     has read what was written to it, its stdin pipe drained
//     (Session.Delivered, stdiodrain*.go); the answer size limit (limit.go),
//     counted as bytes arrive and never taken from a header; and the aim
//     (targets.CheckAim): a target other than loopback only when allowed,
//     headers to one only over https, checked in Open before anything
//     starts, with redirects kept to the target's origin (aim.go);
//   - bearer tokens (bearer.go): with Dial.Auth, every Streamable HTTP
//     and HTTP+SSE request carries its token; a token the server refuses
//     (401, or 403 insufficient_scope) is renewed once, one Refused per
//     token and session, and the request sent once more, before anything
//     of its answer is counted; refused again, the read is unauthorized
//     (ErrUnauthorized), and the Answer says whether it was the
//     session's first read on its token (FreshToken); without Dial.Auth
//     such a refusal is unauthorized at once (a pasted Authorization
//     header, which nothing renews, or none);
//   - errors (errors.go): ErrTransport and ErrProtocol mark the class of
//     a failure, and the cause stays wrapped (%w), so callers errors.Is
//     and errors.As both.
//
// It knows nothing of turns, rates, expectations or reports: the outcomes
// only a run knows (timeout, cancelled, expected_error, dropped) are the
// driver's. It imports only auth (the Tokens interface a session asks for
// its bearer tokens), protocol (the wire vocabulary it shares with the
// simulated server), stats (the bottom layer, which knows nothing of MCP:
// the outcome, shape and byte-count types an answer is classified into),
// targets (the target, its aim and URL redaction), units, internal/
// helpers and golang.org/x/sys/unix (FIONREAD). It must never import
// workload (so the client links no YAML parser), driver, results, report,
// contract or simserver. The load driver reads through DocumentReader (a
// Conn from Open), discovery and the contract check through the exported
// Session's ReadDocument, never a concrete transport.
package client
