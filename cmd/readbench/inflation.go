package main

import (
	"github.com/readbench/readbench/report"
	"github.com/urfave/cli/v2"
)

func inflationCommand() *cli.Command {
	return &cli.Command{
		Name:      "inflation",
		Usage:     "the wire arithmetic of sizes or files: base64 length, padding, JSON envelope",
		ArgsUsage: "SIZE | NxSIZE | FILE ...",
		UsageText: "readbench inflation 1834208          # a 1,834,208-byte PNG: 2,445,612 base64 characters, one '='\n" +
			"readbench inflation 40x3MB            # a folder of 40 mockups: 160 MB on the wire\n" +
			"readbench inflation docs/*.md logo.png  # files: text JSON-escaped, binary as base64",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.Exit("inflation: give at least one size or file (see --help)", exitUsage)
			}
			var rows []report.InflationRow
			for _, arg := range c.Args().Slice() {
				r, err := report.InflationOf(arg)
				if err != nil {
					return cli.Exit("inflation: "+err.Error(), exitUsage)
				}
				rows = append(rows, r)
			}
			return report.WriteInflation(c.App.Writer, rows, termOptions(c).Width)
		},
	}
}
