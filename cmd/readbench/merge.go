package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
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
			&cli.StringFlag{Name: "out", Usage: "save the merged result to `FILE` instead of runs/"},
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
	if err := waitForFiles(c.Context, c.Args().Slice(), c.Duration("wait")); err != nil {
		return cli.Exit("merge: "+err.Error(), exitFail)
	}
	var in []results.MergeInput
	for _, path := range c.Args().Slice() {
		r, err := results.Load(path)
		if err != nil {
			return cli.Exit(err.Error(), exitUsage)
		}
		in = append(in, results.MergeInput{Name: path, Result: r})
	}
	res, err := results.Merge(in)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	// The workload's thresholds hold the whole run, so they are evaluated
	// on the merge (a shard's own verdicts judged a share of it).
	ts, err := bounds.FromWorkload(res.Workload.Thresholds)
	if err != nil {
		return cli.Exit(fmt.Sprintf("merge: %v", err), exitUsage)
	}
	if res.Thresholds, err = results.EvaluateAll(ts, res); err != nil {
		return cli.Exit(fmt.Sprintf("merge: %v", err), exitUsage)
	}
	path := c.String("out")
	if path == "" {
		path = filepath.Join("runs", results.MergedName(res.Started.Time, res.Target.Server.Name, res.Target.Server.Version))
	}
	if err := runsFolder(path); err != nil {
		return cli.Exit(fmt.Sprintf("merge: save: %v", err), exitFail)
	}
	if err := res.SaveTo(path, c.App.Writer); err != nil {
		return cli.Exit(fmt.Sprintf("merge: save: %v", err), exitFail)
	}
	if !c.Bool("quiet") {
		w := c.App.Writer // with --out - stdout holds the result alone
		if path == results.Stdout {
			w = c.App.ErrWriter
		}
		if err := report.WriteTable(w, res); err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "%d shards merged, result saved to %s\n", len(in), outName(path))
	}
	var broken []string
	for _, v := range res.Thresholds {
		if !v.Pass {
			broken = append(broken, v.Bound)
		}
	}
	if len(broken) > 0 {
		return cli.Exit("merge: thresholds broken by the whole run: "+strings.Join(broken, ", "), exitFail)
	}
	return nil
}

// waitForFiles waits until every path exists, polling each second, for at
// most d (0: not at all). Results are written atomically (a temporary
// file, then a rename), so a file that exists is complete.
func waitForFiles(ctx context.Context, paths []string, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	deadline := time.Now().Add(d)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		var missing []string
		for _, p := range paths {
			if _, err := os.Stat(p); err != nil {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after waiting %s, still missing: %s", d, strings.Join(missing, ", "))
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-tick.C:
		}
	}
}
