package main

import (
	"github.com/readbench/readbench/scenarios"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// likeFlag is run's --like RESULT: the workload a saved result ran, run
// again (scenarios.Like); the other flags still override it.
func likeFlag() cli.Flag {
	return &cli.StringFlag{Name: "like", Usage: "run again the workload the saved result `RESULT.json` ran (a merged result too): the same target, seed, rate, length, mix and load settings; flags still override, and secrets (header values, the OAuth client secret, a URL's password), never saved, must be given again"}
}

// runWorkload is the workload run was given: --like's result, else the
// argument as scenarios.Load reads it; not both.
func runWorkload(c *cli.Context) (*workload.Workload, error) {
	if !c.IsSet("like") {
		return workloadOf(c)
	}
	if arg, err := workloadArg(c); err != nil {
		return nil, err
	} else if arg != "" {
		return nil, cli.Exit("run: give a workload or --like RESULT, not both", exitUsage)
	}
	w, err := scenarios.Like(c.String("like"))
	if err != nil {
		return nil, cli.Exit(err.Error(), exitUsage)
	}
	return w, nil
}
