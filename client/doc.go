// Package client is the MCP client readbench measures with: the three
// transports (stdio, Streamable HTTP, HTTP+SSE) in both eras, the
// session, and one way to read a document (DocumentReader.ReadDocument →
// *Answer) that the load, discovery and the contract check all use. It
// exists so that how a read is sent, bounded and cancelled, and what its
// answer was, is decided once: each answer is scanned as it streams in,
// never held whole, and classified in one function (Answer.decide)
// straight into the run's vocabulary (stats' outcome, shape and byte
// counts), so nothing translates it.
//
// It knows nothing of turns, rates, expectations or reports: the
// outcomes only a run knows (timeout, cancelled, expected_error,
// dropped) are the driver's. The README's layout table says what it may
// import; it never imports workload, so the client links no YAML parser.
package client
