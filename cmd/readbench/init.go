package main

import "github.com/urfave/cli/v2"

// initCommand is being written (issue 3).
func initCommand() *cli.Command {
	return &cli.Command{Name: "init", Usage: "(not yet available)", UsageText: "readbench init --target T", Hidden: true,
		Action: func(*cli.Context) error { return cli.Exit("init: not yet available", exitUsage) }}
}
