package main

import (
	"fmt"

	"github.com/readbench/readbench/replay"
	"github.com/urfave/cli/v2"
)

// initFrom is `readbench init --from FILE`: a workload drawn from a
// recording (replay.Starter), written as init writes a starter.
func initFrom(c *cli.Context) error {
	if c.IsSet("target") {
		return cli.Exit("init: give --from or --target, not both (set the target in the workload, or with run --target)", exitUsage)
	}
	out, err := initOut(c)
	if err != nil {
		return err
	}
	file := c.String("from")
	rec, err := readRecording(file, c.App.ErrWriter)
	if err != nil {
		return cli.Exit("init: --from "+err.Error(), exitUsage)
	}
	text, err := replay.Starter(rec, file)
	if err != nil {
		return cli.Exit(fmt.Sprintf("init: --from %s: %v", file, err), exitUsage)
	}
	fmt.Fprintf(c.App.ErrWriter, "readbench: init: drawn from %s: %d reads\n", file, len(rec.Reads))
	return writeStarter(c, out, text)
}
