package results

import (
	"fmt"
	"strings"
	"time"
)

// ShardName is the file name a run's result is saved under when none is
// given: DefaultName, and for a shard of a run split over several
// processes (seg not the whole run) marked with its segment
// ("...-segment-2of3.json"), so that shards started together on one
// machine never overwrite each other.
func ShardName(started time.Time, server, version string, seg Segment) string {
	name := DefaultName(started, server, version)
	if seg.N <= 1 { // the whole run
		return name
	}
	return fmt.Sprintf("%s-segment-%dof%d.json", strings.TrimSuffix(name, ".json"), seg.K, seg.N)
}

// MergedName is the file name the merge of a run's shards is saved under
// when none is given: DefaultName marked "-merged", so that it lists
// beside the shards it was made of and never overwrites one of them.
func MergedName(started time.Time, server, version string) string {
	return strings.TrimSuffix(DefaultName(started, server, version), ".json") + "-merged.json"
}
