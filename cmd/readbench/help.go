package main

import (
	"io"
	"os"
	"strings"

	"github.com/readbench/readbench/internal/helptext"
	"github.com/urfave/cli/v2"
)

// The flag groups of every command's help, in the order they are shown:
// what to run (load), against what (target), which results (runs, for
// compare), what decides the exit (thresholds), what is printed and saved
// (output), live metrics, OAuth, shards, readbench's own profiles; serve
// has its own (listen, simulation).
var groupOrder = []string{"load", "target", "runs", "listen", "simulation", "check", "thresholds", "output",
	"metrics", "auth", "shards", "profile"}

// flagGroup is the group of a flag, by "command/flag" first (a name that
// means another thing in that command), then by the flag's name. A flag
// in neither is under plain OPTIONS, as --help is.
func flagGroup(command, flag string) string {
	if g, ok := commandFlagGroups[command+"/"+flag]; ok {
		return g
	}
	if g, ok := flagGroups[flag]; ok {
		return g
	}
	for prefix, g := range map[string]string{"oauth-": "auth", "metrics": "metrics", "barrier": "shards", "fail-on": "thresholds"} {
		if strings.HasPrefix(flag, prefix) {
			return g
		}
	}
	return ""
}

// commandFlagGroups are the flags whose group depends on the command.
var commandFlagGroups = map[string]string{
	"compare/base": "runs", "compare/new": "runs", "compare/history": "runs", "compare/last": "runs", "compare/force": "runs",
	"ab/base": "target", "ab/new": "target", "merge/wait": "shards",
	"serve/max-message": "simulation", "check/timeout": "check", "serve/trace-log": "metrics",
	"serve/changes": "simulation", "serve/subscription-fault": "simulation", "serve/max-listeners": "simulation",
	"serve/drop-streams-after": "simulation", "serve/keepalive": "listen", "serve/ack-per-listener": "simulation",
}

// flagGroups are the groups of the flags every command names the same.
var flagGroups = map[string]string{
	"class": "load", "rate": "load", "duration": "load", "warmup": "load", "concurrency": "load", "sessions": "load", "trace-sample": "load",
	"seed": "load", "like": "load", "rounds": "load", "max-rounds": "load", "budget": "load", "retries": "load", "max-lag-share": "load",
	"turns": "load", "from": "load", "to": "load", "grow": "load", "refine": "load", "step-duration": "load", "step-warmup": "load",
	"hold": "load", "holds": "load", "sweep": "load",
	"target": "target", "protocol": "target", "http": "target", "header": "target", "allow-host": "target", "insecure-credentials": "target",
	"max-answer": "target", "handshake-timeout": "target", "server-pid": "target",
	"stdio": "listen", "listen": "listen", "stateful": "listen", "sse": "listen", "tls-cert-out": "listen",
	"workers": "simulation", "stall-every": "simulation", "stall-for": "simulation", "crash-after": "simulation",
	"wedge-after": "simulation", "endless-handshake": "simulation", "catalog-size": "simulation", "delay-scale": "simulation", "alter-content": "simulation",
	"sample": "check", "cancel-uri": "check", "read-path": "check", "template-value": "check", "change-tool": "check",
	"threshold": "thresholds", "slo": "thresholds", "single-run": "thresholds", "noise-floor": "thresholds",
	"out": "output", "reads": "output", "format": "output", "full": "output", "trace-url": "output", "quiet": "output", "live": "output", "no-live": "output", "status-every": "output", "force": "output",
	"oauth": "auth", "headless": "auth", "no-browser": "auth",
	"segment": "shards", "start-at": "shards", "run-id": "shards",
	"cpuprofile": "profile", "memprofile": "profile",
}

// helpPrinter lays out help wrapped to COLUMNS, else the terminal's
// width, else 80 columns, the flags in their groups. Asked for with -h
// (in args), the help is short: the groups fewer people need (live
// metrics, OAuth, shards, profiles) list their flags' names alone.
func helpPrinter(args []string) helptext.Printer {
	short := false
	for _, a := range args[min(1, len(args)):] {
		if a == "--" {
			break
		}
		short = short || a == "-h"
	}
	return helptext.Printer{
		Groups: groupOrder,
		Width:  func(w io.Writer) int { return helptext.Width(os.Getenv, w) },
		Short:  short,
		Folded: []string{"metrics", "auth", "shards", "profile"},
	}
}

// groupFlags puts every flag of every command in its help group (the
// flag's Category).
func groupFlags(cmds []*cli.Command) {
	for _, c := range cmds {
		for _, f := range c.Flags {
			setCategory(f, flagGroup(c.Name, f.Names()[0]))
		}
	}
}

// setCategory sets a flag's Category; urfave/cli has no setter, so each
// flag type readbench uses is named (a new one shows up uncategorized in
// the help test).
func setCategory(f cli.Flag, group string) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.Category = group
	case *cli.StringSliceFlag:
		f.Category = group
	case *cli.BoolFlag:
		f.Category = group
	case *cli.IntFlag:
		f.Category = group
	case *cli.Int64Flag:
		f.Category = group
	case *cli.Float64Flag:
		f.Category = group
	case *cli.DurationFlag:
		f.Category = group
	case *cli.GenericFlag:
		f.Category = group
	case *cli.PathFlag:
		f.Category = group
	}
}
