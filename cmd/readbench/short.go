package main

import (
	"slices"

	"github.com/urfave/cli/v2"
)

// shortNames are the one-letter names given to flags every command that
// has them shares, where users of the anchors reach for them: -H a header
// (curl, oha, hey, ab, ghz's -H... wrk's -H), -o where the output goes
// (oha's, curl's). -d, -r, -c, -n (load flags) and -q are set where those
// flags are made. -t is deliberately none: it is the timeout in oha, hey
// and ghz and the threads in wrk, so any meaning here would surprise half
// the users; the target is the first argument instead (`readbench run
// http://…/mcp`). -v stays the version, -h the help.
var shortNames = map[string]string{"header": "H", "out": "o"}

// withShortNames gives each command's flags their short name (shortNames)
// unless the command already uses that letter for another flag.
func withShortNames(cmds []*cli.Command) {
	for _, cmd := range cmds {
		taken := map[string]bool{}
		for _, f := range cmd.Flags {
			for _, n := range f.Names() {
				taken[n] = true
			}
		}
		for _, f := range cmd.Flags {
			short, ok := shortNames[f.Names()[0]]
			if !ok || taken[short] {
				continue
			}
			switch f := f.(type) {
			case *cli.StringFlag:
				f.Aliases = append(slices.Clip(f.Aliases), short)
			case *cli.StringSliceFlag:
				f.Aliases = append(slices.Clip(f.Aliases), short)
			default:
				continue
			}
			taken[short] = true
		}
	}
}
