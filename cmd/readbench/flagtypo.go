package main

import (
	"strings"

	"github.com/readbench/readbench/internal/suggest"
	"github.com/urfave/cli/v2"
)

// undefinedFlag is how the flag package words an unknown flag.
const undefinedFlag = "flag provided but not defined: -"

// flagHint answers a misspelt flag with the closest one the command has
// (" (did you mean --duration?)"), as a misspelt workload key is answered;
// "" for any other usage error, or when nothing is close. It is not
// urfave/cli's cli.SuggestFlag: with OnUsageError set, App.Suggest is never
// consulted, and SuggestFlag itself has no closeness threshold and offers
// one-letter names, so --bogus would get --oauth-scope and --qq would get
// -q (flagtypo_test.go pins both).
func flagHint(c *cli.Context, err error) string {
	msg := err.Error()
	i := strings.Index(msg, undefinedFlag)
	if i < 0 {
		return ""
	}
	word := strings.TrimLeft(msg[i+len(undefinedFlag):], "-")
	word, _, _ = strings.Cut(word, "=")
	var names []string
	var flags []cli.Flag
	if c.Command != nil && c.Command.Name != "" {
		flags = c.Command.Flags
	} else if c.App != nil {
		flags = c.App.Flags
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 { // -q is no plausible spelling of anything
				names = append(names, n)
			}
		}
	}
	best := suggest.Closest(word, names)
	if best == "" {
		return ""
	}
	return " (did you mean --" + best + "?)"
}
