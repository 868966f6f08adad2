package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a command's positional arguments after its flags.
// urfave/cli v2 stops reading flags at the first positional argument, so
// `readbench run my.yaml --duration 1m` would otherwise ignore the flag;
// every tool a performance engineer knows accepts flags on either side.
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	flags := []string{}
	var positional []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			positional = append(positional, rest[i:]...)
			i = len(rest)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
		default:
			positional = append(positional, a)
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	if len(positional) > 0 && positional[0] != "--" {
		out = append(out, "--")
	}
	return append(out, positional...)
}

// parseHeaders reads --header 'Name: value' flags, shared by run, check and init; a value
// is never echoed (it may be a secret).
func parseHeaders(flags []string) (map[string]string, error) {
	var out map[string]string
	for _, h := range flags {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			// Only the first word: without its colon, the rest may be the
			// value ("Authorization Bearer abc"), and a word alone may be a
			// pasted token.
			if i := strings.IndexAny(strings.TrimSpace(h), " \t=:"); i > 0 {
				return nil, fmt.Errorf("--header %q: want 'Name: value' (a colon after the name; the rest is not shown, it may be a secret)", strings.TrimSpace(h)[:i]+" …")
			}
			return nil, errors.New("--header: want 'Name: value' (a colon after the name; the value given is not shown, it may be a secret)")
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = strings.TrimSpace(value)
	}
	return out, nil
}
