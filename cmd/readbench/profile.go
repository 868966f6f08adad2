package main

import (
	"github.com/urfave/cli/v2"
)

// profileFlags let a user see where readbench itself spends its CPU and
// memory during a run (read the files with `go tool pprof`): a load
// generator that costs more than it should measures itself. run makes
// them options of the run (runner.Extras.Profile), serve writes them when
// it exits (package profile).
func profileFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cpuprofile", Usage: "write readbench's own CPU profile, from start to end, to `FILE` (go tool pprof FILE)"},
		&cli.StringFlag{Name: "memprofile", Usage: "write readbench's heap profile at the end to `FILE` (go tool pprof FILE)"},
	}
}
