package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/metrics"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a workload and report read and turn latency",
		ArgsUsage: "[WORKLOAD.yaml | SCENARIO]",
		UsageText: "readbench run                                   # docs-attachments on the embedded server\n" +
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
			"Exit codes: 0 ok; 1 unreachable target, a broken threshold, or a useless run (no read sent,\n" +
			"or none succeeded), each after saving the result; 2 bad usage; 130 interrupted (the partial\n" +
			"result is saved first).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "`TARGET`: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/sse, range+http(s)://HOST:PORT/PREFIX/ (plain HTTP documents)"},
			&cli.StringSliceFlag{Name: "class", Usage: "run only the mix class `NAME` (repeatable): one mode of a comparison per process"},
			&cli.StringFlag{Name: "rate", Usage: "turns per second, e.g. `50/s` or 3000/min (open model)"},
			&cli.DurationFlag{Name: "duration", Usage: "measured run length, e.g. 30s (warmup not included)"},
			&cli.IntFlag{Name: "sessions", Usage: "number of MCP sessions (stdio: one child process each)"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			&cli.StringFlag{Name: "out", Usage: "save the result to `FILE` instead of runs/ (- for stdout; a device or FIFO is written through)"},
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; ${VAR} expands from the environment; never saved)"},
			&cli.IntFlag{Name: "server-pid", Usage: "sample the CPU and memory of the server process `PID` on this machine (an HTTP target; stdio servers are sampled anyway)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.StringFlag{Name: "format", Usage: "the report on stdout: table, markdown, json or junit (thresholds as test cases)", Value: "table"},
			thresholdFlag(),
			maxAnswerFlag(),
			handshakeTimeoutFlag(),
			likeFlag(),
		}, append(append(append(append(append(aimFlags(), profileFlags()...), shardFlags()...), metricsFlags()...), liveFlags()...), oauthFlags()...)...),
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	if c.NArg() > 1 {
		return cli.Exit("run: give at most one workload", exitUsage)
	}
	set, err := reach(c)
	if err != nil {
		return err
	}
	w, err := runWorkload(c)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if set.Overrides, err = overridesOf(c); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	sh, err := shardOf(c, time.Now())
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	set.Segment, set.StartAt, set.Barrier = sh.segment, sh.startAt, sh.barrier
	set.ServerPID = c.Int("server-pid")
	opts, err := driver.NewOptions(w, set)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	sh.withRun(c, opts.Workload)
	_, restoreMemLimit := setMemoryLimit(opts.Workload, os.Getenv)
	defer restoreMemLimit()
	thresholds, err := runThresholds(c, w)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	format := c.String("format")
	if runWriter(format) == nil {
		return cli.Exit(fmt.Sprintf("run: --format %q: want table, markdown, json or junit", format), exitUsage)
	}
	if err := checkAim("run", w.Target, w.Headers, opts.Aim()); err != nil {
		return err
	}
	tokens, closeTokens, err := oauthTokens(c, w.Auth, w.Target)
	if err != nil {
		return err
	}
	defer closeTokens()
	opts.Auth = tokens
	stopProfiles, err := startProfiles(c.String("cpuprofile"), c.String("memprofile"))
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	defer func() {
		if err := stopProfiles(); err != nil {
			fmt.Fprintf(c.App.ErrWriter, "readbench: writing the profiles: %v\n", err)
		}
	}()
	quiet := c.Bool("quiet")
	out, err := resultPath(c.String("out"))
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	stderrLog, err := newServerLog(out.dir)
	if err != nil {
		return cli.Exit(err.Error(), exitFail)
	}
	defer stderrLog.discard()
	opts.Stderr = stderrLog.file
	showLive, err := wantLive(c, c.App.ErrWriter, quiet, w.Load)
	if err != nil {
		return err
	}
	if !quiet && !showLive {
		limit, _ := opts.HandshakeLimit()
		tell, stopSetup := setupPrinter(c.App.ErrWriter, targetName(w.Target), limit)
		defer stopSetup()
		opts.Setup = tell
		if progress := progressPrinter(c.App.ErrWriter, w.Load.Warmup); progress != nil {
			opts.Progress = func(p driver.Progress) {
				stopSetup() // the first turns are under way: the run's own line takes over
				progress(p)
			}
		}
	}
	if !quiet && !set.StartAt.IsZero() { // before a live view: it stays on the screen the view gives back
		fmt.Fprintf(c.App.ErrWriter, "readbench: segment %s: connecting, then starting the schedule at %s (in %s)\n",
			set.Segment, set.StartAt.UTC().Format(time.RFC3339Nano), time.Until(set.StartAt).Round(time.Second))
	}
	if b := set.Barrier; !quiet && b != nil {
		fmt.Fprintf(c.App.ErrWriter, "readbench: segment %s: connecting, then waiting in %s for all %d shards of run %s (up to %s)\n",
			set.Segment, b.Dir, b.N, b.Run, b.Timeout)
	}
	shown := opts.Progress != nil
	opts.Logf = func(format string, args ...any) {
		clearProgress(c.App.ErrWriter, shown)
		fmt.Fprintf(c.App.ErrWriter, "readbench: "+format+"\n", args...)
	}
	mx, err := startMetrics(c, set.StartAt)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if mx != nil && set.Barrier != nil { // the shards of one run share it, as with --start-at
		mx.runID = "barrier-" + set.Barrier.Run
	}
	defer mx.close(c.App.ErrWriter)
	stopLive := func() {}
	if showLive { // the view takes the setup line's, progress line's and failures' place
		stopLive = startLive(c.App.ErrWriter, w, &opts)
		defer stopLive()
	}
	mx.wire(&opts, metrics.Run{}) // after the view: the metrics chain to the progress it set
	rep, err := driver.Run(c.Context, opts)
	stopLive() // the terminal is restored before anything else is printed
	clearProgress(c.App.ErrWriter, shown && err == nil)
	mx.close(c.App.ErrWriter) // the final push: the counts are the result's
	if err != nil {
		var we *workload.Error
		if errors.As(err, &we) {
			return cli.Exit(err.Error(), exitUsage)
		}
		return cli.Exit(err.Error(), exitFail)
	}
	return saveAndReport(c, rep, runOutput{out: out, stderrLog: stderrLog, quiet: quiet, format: format, thresholds: thresholds, metrics: mx.result()})
}

// runOutput is where and how a run's result goes.
type runOutput struct {
	out        resultTarget
	stderrLog  *serverLog
	quiet      bool
	format     string
	thresholds []bounds.Threshold
	metrics    *results.LiveMetrics // --metrics: the result's metrics key (nil: none)
}

// runWriter is how run prints its report in a format, nil for an unknown one.
func runWriter(format string) func(io.Writer, *results.Result) error {
	switch format {
	case "table":
		return report.WriteTable
	case "markdown":
		return report.WriteMarkdown
	case "junit":
		return report.WriteJUnit
	case "json":
		return func(w io.Writer, r *results.Result) error { return report.WriteJSON(w, []*results.Result{r}) }
	}
	return nil
}

func saveAndReport(c *cli.Context, rep *driver.Measurements, o runOutput) error {
	out, stderrLog, quiet, seg := o.out, o.stderrLog, o.quiet, rep.Segment
	res, err := rep.Result(tool())
	if err != nil {
		return err
	}
	res.Metrics = o.metrics
	// Thresholds are evaluated on the result as built, stored in it, and
	// enforced only after it is saved: a broken bound leaves its evidence.
	// A shard carries a share of the load (rate>45/s would fail on every
	// one): readbench merge holds the whole run to them instead.
	thresholds := o.thresholds
	if seg.N > 1 && len(thresholds) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "readbench: segment %s: thresholds are not evaluated on a shard; readbench merge evaluates them on the whole run\n", seg)
		thresholds = nil
	}
	evalErr := holdToThresholds(res, thresholds)
	path := out.path
	if path == "" {
		path = filepath.Join(out.dir, results.ShardName(rep.Started, rep.Server.Name, rep.Server.Version, results.Segment{K: seg.K, N: seg.N}))
	}
	if err := res.SaveTo(path, c.App.Writer); err != nil {
		return cli.Exit(fmt.Sprintf("save result: %v", err), exitFail)
	}
	logPath, err := stderrLog.keep(path)
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "readbench: keep the server's stderr: %v\n", err)
	}
	if !quiet {
		// With --out - standard output holds the result alone, so that
		// it pipes into jq; the report goes to stderr.
		w := c.App.Writer
		if path == results.Stdout {
			w = c.App.ErrWriter
		}
		if err := runWriter(o.format)(w, res); err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "result saved to %s\n", outName(path))
		if logPath != "" {
			fmt.Fprintf(c.App.ErrWriter, "the server's stderr saved to %s\n", logPath)
		}
	}
	// The identity is checked after saving: a run that lost count of a
	// read still leaves its evidence behind, then fails loudly.
	if err := rep.CheckIdentity(); err != nil {
		return cli.Exit(err.Error(), exitFail)
	}
	if evalErr != nil && thresholdUsage(evalErr) {
		return cli.Exit(evalErr.Error(), exitUsage)
	}
	verdict := thresholdFailure(res.Thresholds)
	if evalErr != nil {
		verdict = cli.Exit(evalErr.Error(), exitFail)
	}
	if rep.Partial {
		// A cancelled CI job must not look green, whatever was measured.
		if verdict != nil {
			fmt.Fprintf(c.App.ErrWriter, "readbench: %v\n", verdict)
		}
		return cli.Exit("run interrupted: the result is partial", exitInterrupted)
	}
	// A run that measured nothing usable fails whatever its thresholds.
	if why := results.Useless(res.Totals); why != "" {
		if verdict != nil {
			fmt.Fprintf(c.App.ErrWriter, "readbench: %v\n", verdict)
		}
		return cli.Exit("useless run: "+why, exitFail)
	}
	return verdict
}

// elapsedString formats a progress duration to whole seconds.
func elapsedString(d time.Duration) string { return d.Truncate(time.Second).String() }
