package contract

import (
	"github.com/readbench/readbench/results"
)

// Document turns the report into the check document ("readbench/check/v1",
// docs/results.md), which every renderer reads: the checker knows nothing
// of output formats, and the CLI only wires.
func (r *Findings) Document(tool results.Tool) *results.CheckDocument {
	doc := &results.CheckDocument{
		Tool: tool,
		Target: results.Target{Address: r.Target.Redacted(), Transport: r.Target.Transport(),
			Server:          results.Server{Name: r.Server.Name, Version: r.Server.Version},
			ProtocolVersion: r.ProtocolVersion},
		Unreachable: r.Unreachable, Auth: r.Auth,
	}
	switch {
	case r.ProtocolVersion == "":
	case r.Modern:
		doc.Era = "stateless"
	default:
		doc.Era = "handshake"
	}
	doc.Checks = append(doc.Checks, r.Checks...)
	doc.Finish()
	return doc
}
