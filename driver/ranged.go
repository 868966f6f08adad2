package driver

import "github.com/readbench/readbench/workload"

// A class with ranged: {chunk} is read in parts until eof (docs/workload.md
// (ranged), docs/measurement.md (ranged reads)): the client reads it with
// the read tool over MCP or with Range requests on a range+http target,
// whichever the target is, and answers one client.Answer. The read's
// latency is the whole read, intended start to the last byte of the last
// part; each part's own latency is kept apart (ReadSample.Chunks). A
// deadline or a timeout cuts it like any read.

// chunkOf is the class's chunk size, 0 when it is read whole.
func (r *runner) chunkOf(att workload.Attachment) int64 {
	if att.Class >= len(r.w.Mix) {
		return 0 // a listener's re-read (listen.go): read whole
	}
	if c := r.w.Mix[att.Class].Ranged; c != nil {
		return c.Chunk
	}
	return 0
}
