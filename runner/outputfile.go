package runner

import (
	"fmt"

	"github.com/readbench/readbench/results"
)

// OutputFile checks, before any work, that a command can write its
// rendered output to path (`report --out`, `compare --out`): "-", a
// device, a FIFO, an existing file it may open, or a new file in a folder
// it may write. It is the check a run makes of its --out (Out), so a
// folder that cannot be written (/proc, a read-only mount) is bad usage,
// exit 2, for every command, and named by the path given, never by the
// temporary file the atomic write would have made there.
func OutputFile(path string) error {
	if err := results.CheckOutput(path); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if results.IsStream(path) {
		return nil
	}
	if err := writable(path); err != nil {
		return fmt.Errorf("--out: cannot write to %s: %w", path, err)
	}
	return nil
}
