package scenarios

import (
	"fmt"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
)

// Like reads the workload a saved result ran, for `readbench run --like
// RESULT`: the same target, seed, rate, length, mix and load settings, as
// the run resolved them (its flags included), so that a result is a
// workload too. A merged result or a shard's works alike (every shard
// saves the whole run's workload). A file that is not a result is refused
// as results.Load refuses it (a JSON mistake at its line and column, a
// saved value that does not read back named by its key at its line too).
// Secrets come back as placeholders that the run refuses until flags give
// them again (workload.Workload.UnmarshalJSON); the workload is validated
// once the flags are applied, as a file's is.
func Like(path string) (*workload.Workload, error) {
	r, err := results.Load(path)
	if err != nil {
		return nil, fmt.Errorf("--like: %w", err)
	}
	return &r.Workload, nil
}
