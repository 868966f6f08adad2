// Package record is `readbench record`: a proxy between real MCP clients
// and a real server that forwards every message unchanged and writes, for
// each resources/read that passes, one line of a recording (format.go):
// when it was sent, on which session, the URI, the answer's size, MIME
// type, digest and outcome (classified by package client, exactly as a
// read of readbench's own is), its latency, and the turn it belongs to —
// the reads a client sent together on its session (turns.go, group.go).
// Other methods are forwarded and counted. An answer streams through:
// what classifying a message needs is spooled (spool.go), a few MiB in
// memory and the rest in a nameless file, never the answer whole on the
// heap.
//
// The recording is data for two other packages: replay turns it into an
// explicit schedule for the driver, and into a workload for `init --from`.
// Dependencies point one way: record imports client (the classifier),
// protocol, stats (the outcome vocabulary) and targets (redaction); it
// knows nothing of the driver, workloads or results.
//
// Secrets: no header of any message is written, session ids are replaced
// by s1, s2… in order of first appearance, the upstream and every URI
// are written through targets.RedactSecrets (MaskURI), and with Options.RedactURIs every URI is
// replaced by a digest of it (the shape of the traffic survives, what was
// read does not).
package record
