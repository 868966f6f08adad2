package results

import (
	"fmt"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// slowReadsOf is the result form of a class's kept reads, slowest first;
// nil when it kept none (no read of the class was sent).
func slowReadsOf(k stats.SlowReads) *stats.SlowReads {
	if len(k.Slowest) == 0 && k.BrokeSeen == 0 {
		return nil
	}
	k = k.Sorted()
	return &k
}

// checkTraceIDs refuses a merge of kept reads whose trace ids are not W3C
// trace ids: a merged result names only what a server could have seen.
func checkTraceIDs(k *stats.SlowReads) error {
	for _, list := range [][]stats.SlowRead{k.Slowest, k.Broke} {
		for i, r := range list {
			if r.TraceID == "" {
				continue
			}
			if _, err := protocol.ParseTraceID(r.TraceID); err != nil {
				return fmt.Errorf("slow read %d: %w", i, err)
			}
		}
	}
	return nil
}
