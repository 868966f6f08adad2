package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/report"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/scenarios"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
	"github.com/urfave/cli/v2"
)

// defaultScenario is what `readbench run` runs with no argument.
const defaultScenario = "docs-attachments"

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
			"readbench run --threshold 'turn.p99<800ms,errors<1%' --format junit > readbench.xml   # a CI gate: exit 1 when broken",
		Description: "With no argument runs the built-in docs-attachments scenario; with no target, against the\n" +
			"embedded simulated server (readbench serve --stdio). The result is saved as\n" +
			"runs/<start>-<server>-<version>.json (or --out) and the report printed on stdout.\n" +
			"Flags override the workload file.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "`TARGET`: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/sse, range+http(s)://HOST:PORT/PREFIX/ (plain HTTP documents)"},
			&cli.StringSliceFlag{Name: "class", Usage: "run only the mix class `NAME` (repeatable): one mode of a comparison per process"},
			&cli.StringFlag{Name: "rate", Usage: "turns per second, e.g. `50/s` or 3000/min (open model)"},
			&cli.DurationFlag{Name: "duration", Usage: "measured run length, e.g. 30s (warmup not included)"},
			&cli.IntFlag{Name: "sessions", Usage: "number of MCP sessions (stdio: one child process each)"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			&cli.StringFlag{Name: "out", Usage: "save the result to `FILE` instead of runs/"},
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; ${VAR} expands from the environment; never saved)"},
			&cli.IntFlag{Name: "server-pid", Usage: "sample the CPU and memory of the server process `PID` on this machine (an HTTP target; stdio servers are sampled anyway)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.StringFlag{Name: "format", Usage: "the report on stdout: table, markdown, json or junit (thresholds as test cases)", Value: "table"},
			thresholdFlag(),
			maxAnswerFlag(),
		}, append(append(aimFlags(), profileFlags()...), shardFlags()...)...),
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	if c.NArg() > 1 {
		return cli.Exit("run: give at most one workload", exitUsage)
	}
	w, err := loadWorkload(c.Args().First())
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if err := applyRunFlags(c, w); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	thresholds, err := runThresholds(c, w)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	format := c.String("format")
	if runWriter(format) == nil {
		return cli.Exit(fmt.Sprintf("run: --format %q: want table, markdown, json or junit", format), exitUsage)
	}
	seg, startAt, err := shardOf(c, time.Now())
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if _, err := w.Shard(seg); err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	if err := checkAim("run", w.Target, w.Headers, targets.Aim{AllowHosts: w.AllowHosts, InsecureCredentials: w.InsecureCredentials}); err != nil {
		return err
	}
	stopProfiles, err := startProfiles(c.String("cpuprofile"), c.String("memprofile"))
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	defer func() {
		if err := stopProfiles(); err != nil {
			fmt.Fprintf(c.App.ErrWriter, "readbench: writing the profiles: %v\n", err)
		}
	}()
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable for the embedded server: %w", err)
	}
	quiet := c.Bool("quiet")
	out := resultPath(c.String("out"))
	stderrLog, err := newServerLog(out.dir)
	if err != nil {
		return cli.Exit(err.Error(), exitFail)
	}
	defer stderrLog.discard()
	opts := driver.Options{
		Workload:        w,
		EmbeddedCommand: []string{self, "serve", "--stdio"},
		Stderr:          stderrLog.file,
		Client:          client.ServerInfo{Name: "readbench", Version: version},
		ServerPID:       c.Int("server-pid"),
		Segment:         seg,
		StartAt:         startAt,
	}
	if !quiet {
		opts.Progress = progressPrinter(c.App.ErrWriter)
		if !startAt.IsZero() {
			fmt.Fprintf(c.App.ErrWriter, "readbench: segment %s: connecting, then starting the schedule at %s (in %s)\n",
				seg, startAt.UTC().Format(time.RFC3339Nano), time.Until(startAt).Round(time.Second))
		}
	}
	opts.Logf = func(format string, args ...any) {
		clearProgress(c.App.ErrWriter, opts.Progress != nil)
		fmt.Fprintf(c.App.ErrWriter, "readbench: "+format+"\n", args...)
	}
	rep, err := driver.Run(c.Context, opts)
	if err != nil {
		var we *workload.Error
		if errors.As(err, &we) {
			return cli.Exit(err.Error(), exitUsage)
		}
		return cli.Exit(err.Error(), exitFail)
	}
	clearProgress(c.App.ErrWriter, opts.Progress != nil)
	return saveAndReport(c, w, rep, runOutput{out: out, stderrLog: stderrLog, quiet: quiet, format: format, thresholds: thresholds, seg: seg})
}

// loadWorkload reads a workload file, or a built-in scenario by name when
// no such file exists.
func loadWorkload(arg string) (*workload.Workload, error) {
	if arg == "" {
		arg = defaultScenario
	}
	if _, err := os.Stat(arg); err == nil {
		return workload.LoadFile(arg)
	}
	data, err := scenarios.Get(arg)
	if err != nil {
		return nil, fmt.Errorf("%s: no such file, and %w", arg, err)
	}
	return workload.Parse("<builtin>/"+arg+".yaml", data)
}

// applyRunFlags lets flags override the workload file, then re-validates.
func applyRunFlags(c *cli.Context, w *workload.Workload) error {
	if c.IsSet("target") {
		t, err := targets.Parse(c.String("target"))
		if err != nil {
			return fmt.Errorf("--target: %w", err)
		}
		w.Target = t
	}
	if c.IsSet("rate") {
		r, err := units.ParseRate(c.String("rate"))
		if err != nil {
			return fmt.Errorf("--rate: %w", err)
		}
		w.Load.Rate = r
		w.Load.Stages = nil
	}
	if c.IsSet("duration") {
		w.Load.Duration = c.Duration("duration")
		w.Load.Turns = 0
		w.Load.Stages = nil
	}
	if c.IsSet("sessions") {
		w.Sessions = c.Int("sessions")
	}
	if err := w.KeepClasses(c.StringSlice("class")); err != nil {
		return err
	}
	if c.IsSet("protocol") {
		w.Protocol = c.String("protocol")
	}
	headers, err := parseHeaders(c.StringSlice("header"))
	if err != nil {
		return err
	}
	for name, value := range headers {
		if w.Headers == nil {
			w.Headers = map[string]string{}
		}
		w.Headers[name] = value
	}
	maxAnswer, err := maxAnswerOf(c)
	if err != nil {
		return err
	}
	if maxAnswer > 0 {
		w.Turn.MaxAnswer = maxAnswer
	}
	aim := aimOf(c, w.AllowHosts)
	w.AllowHosts, w.InsecureCredentials = aim.AllowHosts, aim.InsecureCredentials
	return w.Validate()
}

// runOutput is where and how a run's result goes.
type runOutput struct {
	out        resultTarget
	stderrLog  *serverLog
	quiet      bool
	format     string
	thresholds []bounds.Threshold
	seg        workload.Segment // the share of the run this process ran
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

func saveAndReport(c *cli.Context, w *workload.Workload, rep *driver.Report, o runOutput) error {
	out, stderrLog, quiet, seg := o.out, o.stderrLog, o.quiet, o.seg
	res, err := buildResult(w, rep, seg)
	if err != nil {
		return err
	}
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
		path = filepath.Join(out.dir, withSuffix(results.DefaultName(rep.Started, rep.Server.Name, rep.Server.Version), seg))
	}
	if err := res.SaveFile(path); err != nil {
		return cli.Exit(fmt.Sprintf("save result: %v", err), exitFail)
	}
	logPath, err := stderrLog.keep(path)
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "readbench: keep the server's stderr: %v\n", err)
	}
	if !quiet {
		if err := runWriter(o.format)(c.App.Writer, res); err != nil {
			return err
		}
		fmt.Fprintf(c.App.ErrWriter, "result saved to %s\n", path)
		if logPath != "" {
			fmt.Fprintf(c.App.ErrWriter, "the server's stderr saved to %s\n", logPath)
		}
	}
	// The identity is checked after saving: a run that lost count of a
	// read still leaves its evidence behind, then fails loudly.
	for _, phase := range []struct {
		name string
		run  *stats.Run
	}{{"measured", rep.Run}, {"warmup", rep.Warmup}} {
		if err := stats.CheckIdentity(phase.run.Scheduled, &phase.run.Outcomes); err != nil {
			return cli.Exit(fmt.Sprintf("%s phase: %v", phase.name, err), exitFail)
		}
	}
	if rep.Partial {
		fmt.Fprintln(c.App.ErrWriter, "run interrupted: the result is partial")
	}
	if evalErr != nil {
		code := exitFail
		if thresholdUsage(evalErr) {
			code = exitUsage
		}
		return cli.Exit(evalErr.Error(), code)
	}
	return thresholdFailure(res.Thresholds)
}

// elapsedString formats a progress duration to whole seconds.
func elapsedString(d time.Duration) string { return d.Truncate(time.Second).String() }

// resultDigests copies the driver's content digests into the result's form.
func resultDigests(m map[string]driver.Digest) map[string]results.Digest {
	out := make(map[string]results.Digest, len(m))
	for uri, d := range m {
		out[uri] = results.Digest{SHA256: d.SHA256, MIME: d.MIME, Bytes: d.Bytes}
	}
	return out
}

// buildResult makes the result document of a run (or of one of its
// shards, seg) from what the driver reported.
func buildResult(w *workload.Workload, rep *driver.Report, seg workload.Segment) (*results.Result, error) {
	rw := resultWorkload(w)
	res, err := results.Build(results.Meta{
		ToolName: "readbench", ToolVersion: version,
		Started: rep.Started, Ended: rep.Ended, Partial: rep.Partial,
		Target: results.Target{
			Address: w.Target.String(), Transport: w.Target.Transport(),
			Server:          results.Server{Name: rep.Server.Name, Version: rep.Server.Version},
			ProtocolVersion: rep.ProtocolVersion,
		},
		AskedRate: rep.AskedRate, Measured: rep.Measured,
		LateObservable: rep.LateObservable, LateWatch: rep.LateWatch,
		Cost: rep.Cost, GeneratorPeakRSS: rep.GeneratorPeakRSS, GeneratorCPU: rep.GeneratorCPU, Digests: resultDigests(rep.Digests),
		Segment: results.Segment{K: seg.K, N: seg.N},
	}, &rw, rep.Run, rep.Warmup)
	if err != nil {
		return nil, fmt.Errorf("build result: %w", err)
	}
	return res, nil
}
