// Command readbench load-tests the MCP resources/read method: how long
// reads take at the median and in the tail, how a turn of parallel
// attachments behaves under a deadline, and what the wire costs.
//
// This package only wires flags to options; the work is in the packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is the readbench version, set at build time with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit codes, the same for every command (README.md, docs/check.md).
const (
	exitOK    = 0
	exitFail  = 1 // a bound was broken, the target could not be reached, or the run measured nothing usable
	exitUsage = 2 // bad usage (an unknown command too) or bad input file
	// exitInterrupted: interrupted (SIGINT, SIGTERM), whether or not a
	// partial result was saved; 128 + SIGINT, as shells report it
	// (interrupt.go). A cancelled CI job must not look green.
	exitInterrupted = 130
	// exitNotSaved: the run measured, but its result could not be saved
	// where it was asked (a full disk, a read-only folder, a name another
	// run took meanwhile); the report was printed and the result saved to
	// a fallback file named on stderr, if one took it. Not 3: urfave/cli
	// uses 3 for "No help topic", which run() turns into exitUsage.
	exitNotSaved = 4
)

// cliHelpTopicExit is the code urfave/cli gives "No help topic for X"
// (`readbench help nosuch`); run turns it into exitUsage.
const cliHelpTopicExit = 3

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	h := &interrupts{command: commandOf(os.Args), cancel: cancel, stderr: os.Stderr, tty: terminal(os.Stderr),
		killChildren: killChildren, exit: os.Exit, stopWithin: stopWithin, secondGrace: secondGrace}
	go h.watch(sigs, done) // interrupt.go: the first signal stops, the second quits
	// The help's layout (wrapped to the terminal, flags grouped) is the
	// library's one global hook: set here, where the process is owned.
	cli.HelpPrinter = helpPrinter(os.Args).Print
	code := run(ctx, os.Args, os.Stdout, os.Stderr)
	close(done)
	signal.Stop(sigs)
	cancel(nil)
	os.Exit(code)
}

// commandOf is the command a command line runs ("" for none): the first
// argument, as interspersed reads it.
func commandOf(args []string) string {
	if len(args) < 2 {
		return ""
	}
	return args[1]
}

// run executes the command line and returns the exit code; main is the
// only owner of the process (signals, exit).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	err := app.RunContext(ctx, interspersed(app, args))
	if err == nil {
		return exitOK
	}
	code := exitFail
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	if code == cliHelpTopicExit {
		code = exitUsage // `readbench help nosuch`: a usage error like any other
	}
	if code == exitFail && interrupted(ctx) {
		// Whatever failed, failed because of the interrupt: say so, once.
		fmt.Fprintf(stderr, "readbench: interrupted before it could finish, nothing saved: %v\n", err)
		return exitInterrupted
	}
	if msg := err.Error(); msg != "" { // an interrupted serve has said all it has to say
		say(stderr, "readbench: "+msg)
	}
	return code
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:    "readbench",
		Usage:   "load-test the MCP resources/read method",
		Version: version,
		Description: "readbench drives resources/read traffic at an MCP server and reports read and turn\n" +
			"latency (from the intended start: no coordinated omission), outcomes, wire versus disk\n" +
			"bytes, and the server's name, version and protocol version.\n\n" +
			"Start with:  readbench run        (the built-in docs-attachments scenario, embedded server)\n\n" +
			"Exit codes, for every command: 0 ok; 1 a failure (each command's help says which); 2 bad\n" +
			"usage, an unknown command included; 4 measured but the result not saved where asked (it\n" +
			"went to a fallback file); 130 interrupted.",
		Writer:          stdout,
		ErrWriter:       stderr,
		ExitErrHandler:  func(*cli.Context, error) {}, // run() prints and picks the exit code
		OnUsageError:    usageError,
		HideHelpCommand: true,
		Action:          rootAction,
		Commands: []*cli.Command{
			runCommand(),
			serveCommand(),
			scenariosCommand(),
			checkCommand(),
			initCommand(),
			schemaCommand(),
			inflationCommand(),
			reportCommand(),
			compareCommand(),
			mergeCommand(),
			capacityCommand(),
			abCommand(),
			loginCommand(),
			recordCommand(),
			replayCommand(),
			versionCommand(),
		},
	}
	for _, c := range app.Commands {
		c.OnUsageError = usageError
	}
	withShortNames(app.Commands)
	groupFlags(app.Commands)
	return app
}

// rootAction answers readbench with no command (its help, exit 0) or with
// an unknown one: a usage error (exit 2) naming the commands, where the
// library would exit 3 with "No help topic".
func rootAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	names := make([]string, 0, len(c.App.Commands))
	for _, cmd := range c.App.Commands {
		if !cmd.Hidden {
			names = append(names, cmd.Name)
		}
	}
	return cli.Exit(fmt.Sprintf("unknown command %q: the commands are %s (see 'readbench --help')",
		c.Args().First(), strings.Join(names, ", ")), exitUsage)
}

// usageError makes flag mistakes exit 2 with the command's usage hint.
func usageError(c *cli.Context, err error, isSubcommand bool) error {
	help := "readbench --help"
	if isSubcommand {
		help = "readbench " + c.Command.Name + " --help"
	}
	return cli.Exit(fmt.Sprintf("%s%s (see '%s')", explainValue(c, err.Error()), flagHint(c, err), help), exitUsage)
}
