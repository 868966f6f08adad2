package main

import (
	"regexp"
	"strings"

	"github.com/readbench/readbench/units"
	"github.com/urfave/cli/v2"
)

// invalidValue is how the flag package words a value it could not parse:
// `invalid value "5" for flag -duration: parse error`.
var invalidValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): parse error$`)

// explainValue replaces the flag package's bare "parse error" for a
// duration flag with what is wrong and how to write it
// (`--duration 5`: `duration "5" has no unit: write 5s, 5ms or 5m`), the
// words a workload's durations get (units.DurationError). Any other error
// is returned as it is.
func explainValue(c *cli.Context, msg string) string {
	m := invalidValue.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	value, name := m[1], m[2]
	if !isDurationFlag(flagsOf(c), name) {
		return msg
	}
	dash := "--"
	if len(name) == 1 {
		dash = "-" // -d, as it was written
	}
	return dash + name + ": " + units.DurationError(value).Error()
}

// flagsOf is the flags of the command c runs (the app's at the top).
func flagsOf(c *cli.Context) []cli.Flag {
	if c.Command != nil && c.Command.Name != "" {
		return c.Command.Flags
	}
	if c.App != nil {
		return c.App.Flags
	}
	return nil
}

// isDurationFlag reports whether name (without dashes) is one of flags
// and takes a duration.
func isDurationFlag(flags []cli.Flag, name string) bool {
	name = strings.TrimLeft(name, "-")
	for _, f := range flags {
		if _, ok := f.(*cli.DurationFlag); !ok {
			continue
		}
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}
