package main

import "github.com/urfave/cli/v2"

// versionCommand is `readbench version`, what k6 and vegeta users type:
// the same line as --version (and -v), "readbench version X".
func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print readbench's version (as --version does)",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cli.Exit("version: takes no argument", exitUsage)
			}
			cli.ShowVersion(c)
			return nil
		},
	}
}
