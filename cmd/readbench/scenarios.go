package main

import (
	"fmt"

	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/scenarios"
	"github.com/urfave/cli/v2"
)

func scenariosCommand() *cli.Command {
	return &cli.Command{
		Name:      "scenarios",
		Usage:     "list the built-in scenarios, each with its description",
		UsageText: "readbench scenarios\nreadbench run design-mockups",
		Action: func(c *cli.Context) error {
			list, err := scenarios.List()
			if err != nil {
				return err
			}
			lines := make([]report.Scenario, len(list))
			for i, s := range list {
				lines[i] = report.Scenario{Name: s.Name, Description: s.Description, Load: scenarioLoad(s)}
			}
			return report.WriteScenarios(c.App.Writer, lines, report.ScenariosWidth)
		},
	}
}

// scenarioLoad says what a scenario loads: "3 classes, 10/s".
func scenarioLoad(s scenarios.Info) string {
	classes := fmt.Sprintf("%d classes", s.Classes)
	if s.Classes == 1 {
		classes = "1 class"
	}
	switch {
	case s.Concurrency > 0:
		return fmt.Sprintf("%s, %d turns in flight", classes, s.Concurrency)
	case s.Rate != "":
		return classes + " at " + s.Rate
	}
	return classes
}
