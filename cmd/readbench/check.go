package main

import "github.com/urfave/cli/v2"

// checkCommand is being written (issue 3).
func checkCommand() *cli.Command {
	return &cli.Command{Name: "check", Usage: "(not yet available)", UsageText: "readbench check --target T", Hidden: true,
		Action: func(*cli.Context) error { return cli.Exit("check: not yet available", exitUsage) }}
}
