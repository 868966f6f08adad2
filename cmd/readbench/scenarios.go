package main

import (
	"fmt"

	"github.com/readbench/readbench/scenarios"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

func scenariosCommand() *cli.Command {
	return &cli.Command{
		Name:      "scenarios",
		Usage:     "list the built-in scenarios",
		UsageText: "readbench scenarios\nreadbench run design-mockups",
		Action: func(c *cli.Context) error {
			for _, name := range scenarios.Names() {
				data, err := scenarios.Get(name)
				if err != nil {
					return err
				}
				desc := ""
				if w, err := workload.Parse(name+".yaml", data); err == nil {
					desc = fmt.Sprintf("%d class(es), %s", len(w.Mix), w.Load.Rate)
				}
				fmt.Fprintf(c.App.Writer, "%-20s %s\n", name, desc)
			}
			return nil
		},
	}
}
