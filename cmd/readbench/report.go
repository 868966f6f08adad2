package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/readbench/readbench/internal/helptext"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/urfave/cli/v2"
)

// reportCommand re-renders saved results in another format: a table for
// the terminal, markdown for a pull request, JSON for scripts, one HTML
// page of charts, or an HdrHistogram log for HdrHistogram's own tools.
func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "re-render saved results: table, markdown, json, html, hlog, or modes (side by side)",
		ArgsUsage: "RESULT.json...",
		UsageText: "readbench report runs/2026-11-30T02-28-47Z-srv-1.0.json\n" +
			"readbench report base.json new.json --format markdown > report.md\n" +
			"readbench report r.json --format html --out r.html      # one self-contained page of charts\n" +
			"readbench report r.json --format hlog --out r.hlog      # HdrHistogram log (values in µs)\n" +
			"readbench report r.json --format html --trace-url 'https://jaeger.example/trace/{trace_id}' --out r.html   # slow reads link to their traces\n" +
			"readbench report whole.json chunks.json http.json --format modes   # one document read different ways, side by side",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "table, markdown, json, junit (the thresholds of one result), html, hlog or modes", Value: "table"},
			&cli.StringFlag{Name: "out", Usage: "write to `FILE` instead of standard output"},
			fullFlag(),
			traceURLFlag(),
		},
		Action: reportAction,
	}
}

// reportWriter returns how a format writes several results, nil for an
// unknown format.
func reportWriter(format string, full bool, o report.Options) func(io.Writer, []*results.Result) error {
	each := func(f func(io.Writer, *results.Result) error, sep string) func(io.Writer, []*results.Result) error {
		return func(w io.Writer, rs []*results.Result) error {
			for i, r := range rs {
				if i > 0 {
					if _, err := io.WriteString(w, sep); err != nil {
						return err
					}
				}
				if err := f(w, r); err != nil {
					return err
				}
			}
			return nil
		}
	}
	switch format {
	case "table":
		return each(tableWriter(full, o), "\n")
	case "markdown":
		return each(o.WriteMarkdown, "\n---\n\n")
	case "hlog":
		return each(report.WriteHlog, "")
	case "json":
		return report.WriteJSON
	case "html":
		return o.WriteHTML
	case "modes":
		return report.WriteModes
	case "junit":
		return func(w io.Writer, rs []*results.Result) error {
			if len(rs) != 1 {
				return fmt.Errorf("--format junit writes the thresholds of one result; got %d", len(rs))
			}
			return report.WriteJUnit(w, rs[0])
		}
	}
	return nil
}

func reportAction(c *cli.Context) error {
	o, err := reportOptions(c)
	if err != nil {
		return err
	}
	write := reportWriter(c.String("format"), c.Bool("full"), o)
	if write == nil {
		return cli.Exit(fmt.Sprintf("report: --format %q: want table, markdown, json, junit, html, hlog or modes", c.String("format")), exitUsage)
	}
	if c.NArg() == 0 {
		return cli.Exit("report: give at least one result file", exitUsage)
	}
	if c.String("format") == "junit" && c.NArg() != 1 {
		return cli.Exit("report: --format junit writes the thresholds of one result", exitUsage)
	}
	if out := c.String("out"); out != "" {
		if err := runner.OutputFile(out); err != nil { // before any work, as run's --out: exit 2
			return cli.Exit(fmt.Sprintf("report: %v", err), exitUsage)
		}
	}
	defer results.LeanGC(c.Args().Slice(), os.Getenv)()
	rs, err := results.LoadAll(c.Args().Slice())
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	out := c.String("out")
	if out == "" {
		// Straight to stdout: a big result's JSON document is not held
		// once more, whole, in a buffer (issue 47, item 22).
		if err := write(c.App.Writer, rs); err != nil {
			return cli.Exit(err.Error(), exitFail)
		}
		return nil
	}
	// Rendered in memory first, so that a failure leaves no half-written
	// file behind.
	var buf bytes.Buffer
	if err := write(&buf, rs); err != nil {
		return cli.Exit(err.Error(), exitFail)
	}
	if err := results.WriteOutput(out, buf.Bytes(), c.App.Writer); err != nil {
		return cli.Exit(fmt.Sprintf("report: %v", err), exitFail)
	}
	return nil
}

// fullFlag is --full: the whole terminal report instead of the one that
// fits a screen.
func fullFlag() cli.Flag {
	return &cli.BoolFlag{Name: "full", Usage: "with --format table, the whole report: service time, first byte and lag rows, bytes per class, the advice's reasoning, cancellation, connections, cache hints, the server's cost, the warmup (markdown, json and html always have them)"}
}

// traceURLFlag is --trace-url: where the reports' trace ids link, on every
// command that renders a run's report.
func traceURLFlag() cli.Flag {
	return &cli.StringFlag{Name: "trace-url", Usage: "link each slow read's trace id (html and markdown) through `TEMPLATE`, {trace_id} replaced by the id, " +
		"e.g. 'https://jaeger.example/trace/{trace_id}'"}
}

// reportOptions are the renderers' options the flags ask for; a template
// without {trace_id} is a usage error.
func reportOptions(c *cli.Context) (report.Options, error) {
	u, err := report.ParseTraceURL(c.String("trace-url"))
	if err != nil {
		return report.Options{}, cli.Exit(c.Command.Name+": --trace-url: "+err.Error(), exitUsage)
	}
	o := termOptions(c)
	o.TraceURL = u
	return o, nil
}

// termOptions lay the terminal views out for COLUMNS, else the
// terminal's width, else 80 columns (a pipe, a CI log).
func termOptions(c *cli.Context) report.Options {
	return report.Options{Width: helptext.Width(os.Getenv, c.App.Writer)}
}

// tableWriter is the terminal report, whole or brief, laid out for o.
func tableWriter(full bool, o report.Options) func(io.Writer, *results.Result) error {
	if full {
		return o.WriteFullTable
	}
	return o.WriteTable
}
