package main

import (
	"github.com/readbench/readbench/workload/yamlfile"
	"github.com/urfave/cli/v2"
)

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of the workload file, for editors",
		UsageText: "readbench schema > readbench.schema.json\n\n" +
			"Then, with the YAML language server (VS Code's YAML extension, for example), put this\n" +
			"first line in a workload file to get completion and checking as you type:\n" +
			"  # yaml-language-server: $schema=./readbench.schema.json",
		Action: func(c *cli.Context) error {
			_, err := c.App.Writer.Write(yamlfile.JSONSchema())
			return err
		},
	}
}
