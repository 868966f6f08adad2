package main

import (
	"fmt"
	"io"
	"time"

	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/urfave/cli/v2"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a workload and report read and turn latency",
		ArgsUsage: "[WORKLOAD.yaml | SCENARIO] [TARGET]",
		UsageText: "readbench run                                   # docs-attachments on the embedded server\n" +
			"readbench run http://127.0.0.1:8080/mcp         # the same at a server: an argument written as a target is the target\n" +
			"readbench run my-workload.yaml --duration 1m\n" +
			"readbench run --target http://127.0.0.1:8080/mcp --rate 50/s\n" +
			"readbench run --target 'stdio:npx -y @modelcontextprotocol/server-everything'\n" +
			"readbench run --target https://staging.example.com/mcp --allow-host staging.example.com --header 'Authorization: Bearer ${TOKEN}' w.yaml\n" +
			"readbench run --cpuprofile cpu.pprof --memprofile mem.pprof   # where readbench itself spends (go tool pprof)\n" +
			"readbench run large-log --class chunked --target range+http://127.0.0.1:8080/files/   # plain HTTP Range requests\n" +
			"readbench run --threshold 'turn.p99<800ms,errors<1%' --format junit > readbench.xml   # a CI gate: exit 1 when broken\n" +
			"readbench run --like runs/base.json --target http://127.0.0.1:8081/mcp   # a saved result's workload again, on another server",
		Description: "With no argument runs the built-in docs-attachments scenario; with no target, against the\n" +
			"embedded simulated server (readbench serve --stdio). The result is saved as\n" +
			"runs/<start>-<server>-<version>.json (or --out) and the report printed on stdout.\n" +
			"Flags override the workload file.\n\n" +
			"Exit codes: 0 ok; 1 unreachable target, a broken threshold, a useless run (no read sent,\n" +
			"or none succeeded) or, without thresholds, a run most of whose turns or reads failed (the\n" +
			"health line, the report's first, says why), each after saving the result; 2 bad usage\n" +
			"(an existing --out FILE without --force too); 4 measured but not saved where asked (a full\n" +
			"disk: the report is printed and the result saved to a fallback file it names); 130\n" +
			"interrupted (the partial result is saved first).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "`TARGET`: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/sse, range+http(s)://HOST:PORT/PREFIX/ (plain HTTP documents)"},
			&cli.StringSliceFlag{Name: "class", Usage: "run only the mix class `NAME` (repeatable): one mode of a comparison per process"},
			rateFlag("turns per second, e.g. `50/s` or 3000/min (open model)"),
			durationFlag("measured run length, e.g. 30s (warmup not included)"),
			turnsFlag(),
			warmupFlag(),
			concurrencyFlag(),
			&cli.IntFlag{Name: "sessions", Usage: "number of MCP sessions (stdio: one child process each)"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			httpFlag(),
			&cli.StringFlag{Name: "out", Usage: "save the result to `FILE` instead of runs/ (- for stdout; a device or FIFO is written through); an existing FILE is refused before the run"},
			forceFlag(),
			&cli.StringFlag{Name: "reads", Usage: "write every read to `FILE` as it ends, one record each (JSON Lines; CSV for a .csv name): phase, turn, session, intended start, latency, outcome, class, uri, bytes (docs/reads.md)"},
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; ${VAR} expands from the environment; never saved)"},
			&cli.IntFlag{Name: "server-pid", Usage: "sample the CPU and memory of the server process `PID` on this machine (an HTTP target; stdio servers are sampled anyway)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.StringFlag{Name: "format", Usage: "the report on stdout: table, markdown, json, junit (thresholds as test cases) or html (the page of report --format html: > page.html)", Value: "table"},
			fullFlag(),
			traceURLFlag(),
			thresholdFlag(),
			maxAnswerFlag(),
			traceSampleFlag(),
			handshakeTimeoutFlag(),
			likeFlag(),
		}, append(append(append(append(append(aimFlags(), profileFlags()...), shardFlags()...), metricsFlags()...), liveFlags()...), oauthFlags()...)...),
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	if c.NArg() > 2 {
		return cli.Exit("run: give at most one workload and one target", exitUsage)
	}
	if err := positionalTarget(c); err != nil {
		return err
	}
	o, err := reportOptions(c)
	if err != nil {
		return err
	}
	write := runWriter(c.String("format"), c.Bool("full"), o)
	if write == nil {
		return cli.Exit(fmt.Sprintf("run: --format %q: want table, markdown, json, junit or html", c.String("format")), exitUsage)
	}
	job, view, err := runJob(c)
	if err != nil {
		return err
	}
	defer view.close()
	done, err := job.Run(c.Context)
	if err != nil {
		return exitFor("", err)
	}
	return view.report(done, write)
}

// runJob reads run's flags into the job to run and the view that shows
// it on stderr.
func runJob(c *cli.Context) (runner.Job, *runView, error) {
	base, err := reach(c)
	if err != nil {
		return runner.Job{}, nil, err
	}
	sh, err := shardOf(c, time.Now())
	if err != nil {
		return runner.Job{}, nil, cli.Exit(err.Error(), exitUsage)
	}
	base.Segment, base.StartAt, base.Barrier = sh.segment, sh.startAt, sh.barrier
	base.ServerPID = c.Int("server-pid")
	w, err := runWorkload(c)
	if err != nil {
		return runner.Job{}, nil, err
	}
	opts, err := prepare(c, base, w, nil)
	if err != nil {
		return runner.Job{}, nil, err
	}
	sh.withRun(c, opts.Workload)
	warnOpenFiles(c.App.ErrWriter, opts.Workload)
	if err := sh.prepare(c); err != nil {
		return runner.Job{}, nil, err
	}
	ts, err := runThresholds(c, opts.Workload)
	if err != nil {
		return runner.Job{}, nil, cli.Exit(err.Error(), exitUsage)
	}
	save, err := runner.Out(c.String("out"), c.Bool("force"), c.App.Writer)
	if err != nil {
		return runner.Job{}, nil, cli.Exit(err.Error(), exitUsage)
	}
	job := runner.Job{Options: opts, Thresholds: ts, Save: save}
	view, err := startRunView(c, &job)
	if err != nil {
		return runner.Job{}, nil, err
	}
	return job, view, nil
}

// runWriter is how run prints its report in a format, nil for an unknown
// one; full asks for the whole table (the other formats are whole); o
// links markdown's and html's trace ids.
func runWriter(format string, full bool, o report.Options) func(io.Writer, *results.Result) error {
	switch format {
	case "table":
		return tableWriter(full, o)
	case "markdown":
		return o.WriteMarkdown
	case "junit":
		return report.WriteJUnit
	case "json":
		return func(w io.Writer, r *results.Result) error { return report.WriteJSON(w, []*results.Result{r}) }
	case "html": // the page `report --format html` renders, in the same step as the run
		return func(w io.Writer, r *results.Result) error { return o.WriteHTML(w, []*results.Result{r}) }
	}
	return nil
}
