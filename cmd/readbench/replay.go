package main

import (
	"fmt"
	"io"
	"os"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/replay"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/runner"
	"github.com/readbench/readbench/targets"
	"github.com/urfave/cli/v2"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "send a recording's reads in their turns at the recorded times (open loop); an ordinary result",
		ArgsUsage: "RECORDING.jsonl",
		UsageText: "readbench replay traffic.jsonl --target http://127.0.0.1:8081/mcp\n" +
			"readbench replay traffic.jsonl --target http://127.0.0.1:8081/mcp --speed 4x --sessions 8\n" +
			"readbench replay traffic.jsonl --target 'stdio:node server.js' --diff   # exit 1 when an answer changed",
		Description: "Each recorded turn (the reads a session had in flight together) is sent at its recorded\n" +
			"time divided by --speed, on the target session its recorded session maps to (recorded\n" +
			"session k on k modulo --sessions; default: as many as were recorded). Latency counts from\n" +
			"each turn's intended time; lag and drops are any run's, and so is the result (report,\n" +
			"compare, thresholds and ab work on it). --diff compares every answer with the recorded one\n" +
			"(size, digest, outcome), lists the URIs that changed and exits 1 when any did.\n\n" +
			"Exit codes: as run's; and 1 with --diff when an answer differs; 2 a bad recording.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "`TARGET` to replay against: embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/sse"},
			&cli.StringFlag{Name: "speed", Usage: "`FACTOR` the recorded times are divided by: 1x, 4x, 0.5x", Value: "1x"},
			&cli.IntFlag{Name: "sessions", Usage: "sessions to open on the target (default: the recording's)"},
			&cli.BoolFlag{Name: "diff", Usage: "compare each answer's size, digest and outcome with the recorded one"},
			&cli.StringFlag{Name: "protocol", Usage: "protocol version to force, or auto"},
			httpFlag(),
			&cli.StringFlag{Name: "out", Usage: "save the result to `FILE` instead of runs/ (- for stdout); an existing FILE is refused before the replay"},
			forceFlag(),
			&cli.StringSliceFlag{Name: "header", Usage: "HTTP header `'Name: value'` on every request (repeatable; ${VAR} expands; never saved)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors"},
			&cli.StringFlag{Name: "format", Usage: "the report on stdout: table, markdown, json or junit", Value: "table"},
			fullFlag(),
			traceURLFlag(),
			thresholdFlag(),
			maxAnswerFlag(),
			handshakeTimeoutFlag(),
		}, append(append(append(aimFlags(), metricsFlags()...), liveFlags()...), oauthFlags()...)...),
		Action: replayAction,
	}
}

func replayAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return cli.Exit("replay: give one recording (see 'readbench replay --help')", exitUsage)
	}
	o, err := reportOptions(c)
	if err != nil {
		return err
	}
	write := runWriter(c.String("format"), c.Bool("full"), o)
	if write == nil {
		return cli.Exit(fmt.Sprintf("replay: --format %q: want table, markdown, json or junit", c.String("format")), exitUsage)
	}
	file := c.Args().First()
	rec, err := readRecording(file, c.App.ErrWriter)
	if err != nil {
		return cli.Exit("replay: "+err.Error(), exitUsage)
	}
	speed, err := replay.ParseSpeed(c.String("speed"))
	if err != nil {
		return cli.Exit("replay: --"+err.Error(), exitUsage)
	}
	plan, err := replay.Prepare(rec, replay.Options{Speed: speed, Sessions: c.Int("sessions"), File: file})
	if err != nil {
		return cli.Exit(fmt.Sprintf("replay: %s: %v", file, err), exitUsage)
	}
	base, err := reach(c)
	if err != nil {
		return err
	}
	opts, err := prepare(c, base, plan.Workload, nil)
	if err != nil {
		return err
	}
	opts.Schedule = plan.Schedule
	var diff *replay.Diff
	if c.Bool("diff") {
		diff = replay.NewDiff(rec)
		opts.Schedule.Digest, opts.Schedule.Told = true, diff.Told
	}
	ts, err := runThresholds(c, opts.Workload)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	save, err := runner.Out(c.String("out"), c.Bool("force"), c.App.Writer)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	job := runner.Job{Options: opts, Thresholds: ts, Save: save}
	view, err := startRunView(c, &job)
	if err != nil {
		return err
	}
	defer view.close()
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "readbench replay: %d reads in %d turns of %d recorded sessions over %s at %gx\n",
			len(rec.Reads), len(plan.Schedule.Turns), plan.Sessions, numfmt.Duration(plan.Span), speed)
	}
	done, err := job.Run(c.Context)
	if err != nil {
		return exitFor("", err)
	}
	exit := view.report(done, write)
	if diff == nil {
		return exit
	}
	w := c.App.Writer
	if done.Path == results.Stdout {
		w = c.App.ErrWriter
	}
	d := diff.Result()
	writeDiff(w, d)
	if exit == nil && d.Differed > 0 {
		return cli.Exit(fmt.Sprintf("replay: %d of %d answers differ from the recording", d.Differed, d.Compared), exitFail)
	}
	return exit
}

// readRecording parses a recording file; an error names the file and
// line. The secrets of its URIs are masked (record.MaskSecrets) and said
// on warn: a recording made before the proxy masked them, or by hand,
// never carries one into a workload or a result.
func readRecording(file string, warn io.Writer) (*record.Recording, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := record.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	if n := rec.MaskSecrets(); n > 0 {
		fmt.Fprintf(warn, "readbench: %s: %d recorded reads had a secret in their URI; it is masked (%s), as the proxy now records it: a replay sends the mask\n", file, n, targets.Masked)
	}
	return rec, nil
}

// writeDiff prints what --diff found.
func writeDiff(w io.Writer, d replay.DiffResult) {
	fmt.Fprintf(w, "\ndiff against the recording: %d of %d answers differ (%d URIs)\n", d.Differed, d.Compared, len(d.Changed))
	for _, c := range d.Changed {
		fmt.Fprintf(w, "  %s: recorded %s, now %s (%d reads)\n", c.URI, c.Recorded, c.Replayed, c.Reads)
	}
}
