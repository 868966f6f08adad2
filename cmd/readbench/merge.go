package main

import (
	"fmt"

	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/urfave/cli/v2"
)

// mergeCommand adds the results of the n shards of one run (--segment k/n)
// into the result of the whole run.
func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "merge the results of the shards of one run (--segment k/n) into the whole run's",
		ArgsUsage: "SHARD.json...",
		UsageText: "readbench merge runs/*-segment-*of3.json --out merged.json\n" +
			"readbench merge /results/shard-*.json --out /results/merged.json --quiet",
		Description: "Counters add and histograms merge exactly (percentiles within the histograms' 3 significant\n" +
			"digits); timelines add by wall-clock second; each shard's server cost is kept under shards.\n" +
			"Refused (exit 2): a whole run, shards of different n, a segment twice or missing, different\n" +
			"workloads, targets, servers or readbench versions, shards that did not run at the same time.\n" +
			"The workload's thresholds are evaluated on the merged result: exit 1 when one is broken.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "save the merged result to `FILE` instead of runs/; an existing FILE is refused"},
			forceFlag(),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.DurationFlag{Name: "wait", Usage: "wait up to `DURATION` for every shard file to exist (shards still running elsewhere, e.g. a Kubernetes merge Job)"},
		},
		Action: mergeAction,
	}
}

func mergeAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.Exit("merge: give the result files of the shards", exitUsage)
	}
	save, err := runner.Out(c.String("out"), c.Bool("force"), c.App.Writer)
	if err != nil {
		return cli.Exit("merge: "+err.Error(), exitUsage)
	}
	done, err := runner.Merge(c.Context, c.Args().Slice(), c.Duration("wait"), save)
	if err != nil {
		return exitFor("merge: ", err)
	}
	if !c.Bool("quiet") {
		w := c.App.Writer // with --out - stdout holds the result alone
		if done.Path == results.Stdout {
			w = c.App.ErrWriter
		}
		if err := report.WriteTable(w, done.Result); err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "%d shards merged\n", c.NArg())
		saved(c.App.ErrWriter, done)
	}
	return exitOf(c.App.ErrWriter, done.Judgement)
}
