package main

import (
	"fmt"
	"os"

	"github.com/readbench/readbench/targets"
	"github.com/urfave/cli/v2"
)

// A command's first argument is its workload (a file or a built-in
// scenario); one written as a target instead (targets.LooksLike: a URL
// scheme readbench knows, or stdio:) is the target, as oha's and hey's
// URL argument is, so `readbench run http://127.0.0.1:8080/mcp` loads that
// server with the default scenario. A file of that name, should one
// exist, stays a workload.

// isTargetArg says whether a positional argument is a target.
func isTargetArg(arg string) bool {
	if !targets.LooksLike(arg) {
		return false
	}
	_, err := os.Stat(arg)
	return err != nil
}

// positionalTarget makes a target given as an argument the command's
// --target (run and capacity), refusing one given both ways or twice.
func positionalTarget(c *cli.Context) error {
	var given []string
	for _, a := range c.Args().Slice() {
		if isTargetArg(a) {
			given = append(given, a)
		}
	}
	switch {
	case len(given) == 0:
		return nil
	case len(given) > 1:
		return cli.Exit(fmt.Sprintf("%s: give one target, not %d", c.Command.Name, len(given)), exitUsage)
	case c.IsSet("target"):
		return cli.Exit(fmt.Sprintf("%s: give the target once: as the argument %q or as --target, not both", c.Command.Name, given[0]), exitUsage)
	}
	return c.Set("target", given[0])
}

// workloadArg is the command's workload argument ("": the default
// scenario), the target argument left out; a target there that the
// command does not take as one (ab's sides are --base and --new) is
// refused, naming the flag.
func workloadArg(c *cli.Context) (string, error) {
	var workloads []string
	for _, a := range c.Args().Slice() {
		if !isTargetArg(a) {
			workloads = append(workloads, a)
			continue
		}
		if c.String("target") != a {
			return "", cli.Exit(fmt.Sprintf("%s: %q is a target, not a workload file or scenario: give it with the command's target flag (see 'readbench %s --help')",
				c.Command.Name, a, c.Command.Name), exitUsage)
		}
	}
	if len(workloads) > 1 {
		return "", cli.Exit(fmt.Sprintf("%s: give at most one workload", c.Command.Name), exitUsage)
	}
	if len(workloads) == 0 {
		return "", nil
	}
	return workloads[0], nil
}
