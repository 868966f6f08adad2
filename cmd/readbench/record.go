package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/targets"
	"github.com/urfave/cli/v2"
)

func recordCommand() *cli.Command {
	return &cli.Command{
		Name:  "record",
		Usage: "proxy real MCP clients to a server and record every resources/read (for replay and init --from)",
		UsageText: "readbench record --listen 127.0.0.1:9000 --upstream http://127.0.0.1:8080/mcp --out traffic.jsonl\n" +
			"readbench record --stdio --upstream 'stdio:node server.js' --out traffic.jsonl   # as a stdio host's server command\n" +
			"readbench replay traffic.jsonl --target http://127.0.0.1:8081/mcp --speed 2x\n" +
			"readbench init --from traffic.jsonl > from-traffic.yaml",
		Description: "Forwards every message unchanged (Streamable HTTP, both eras: point the client at\n" +
			"http://ADDR/mcp; or stdio with --stdio, to a stdio or HTTP upstream) and writes one JSON line per resources/read: its time,\n" +
			"session (s1, s2…), turn (the reads a session had in flight together), URI, answer size, MIME\n" +
			"type, digest, outcome and latency. Other methods are counted. No header is ever recorded;\n" +
			"--redact-uris keeps only a digest of each URI; secrets in URIs are masked. OAuth discovery,\n" +
			"and an authorization server on the upstream's origin, pass through the proxy, which stands\n" +
			"for that origin (docs/record.md). The format is docs/record.md. Stops on\n" +
			"Ctrl-C (exit 130 after the file is closed) or, with --stdio, when the host closes stdin.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "listen", Usage: "serve the proxy at `ADDR`, HOST:PORT (127.0.0.1:9000; :9000 is 127.0.0.1:9000; a host not loopback, such as 0.0.0.0, is bound with a warning)"},
			&cli.BoolFlag{Name: "stdio", Usage: "be a stdio server: the host's stdin and stdout, the upstream a stdio:CMD child"},
			&cli.StringFlag{Name: "upstream", Usage: "the server: `TARGET` http(s)://HOST:PORT/PATH; with --stdio also stdio:CMD ARG..."},
			&cli.StringFlag{Name: "out", Usage: "write the recording to `FILE` (- for stdout, not with --stdio)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite --out FILE if it exists"},
			&cli.StringSliceFlag{Name: "header", Usage: "with --stdio and an HTTP upstream: header `'Name: value'` on every request (repeatable; ${VAR} expands; never recorded)"},
			&cli.BoolFlag{Name: "redact-uris", Usage: "record a digest of each URI instead of the URI"},
			&cli.DurationFlag{Name: "burst", Usage: "the least turn window: reads of a session within `D` of a turn's first read are that turn, whatever was answered (the window grows with the gaps seen)", Value: record.DefaultBurst},
		}, aimFlags()...),
		Action: recordAction,
	}
}

func recordAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return cli.Exit("record: takes no arguments", exitUsage)
	}
	stdio, listen := c.Bool("stdio"), c.String("listen")
	if stdio == (listen != "") {
		return cli.Exit("record: give exactly one of --listen ADDR or --stdio", exitUsage)
	}
	if !c.IsSet("upstream") || !c.IsSet("out") {
		return cli.Exit("record: --upstream and --out are required (see 'readbench record --help')", exitUsage)
	}
	up, err := targets.Parse(c.String("upstream"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("record: --upstream: %v", err), exitUsage)
	}
	headers, err := parseHeaders(c.StringSlice("header"))
	if err != nil {
		return cli.Exit(fmt.Sprintf("record: %v", err), exitUsage)
	}
	if len(headers) > 0 && !(stdio && up.Kind == targets.HTTP) {
		return cli.Exit("record: --header is for --stdio with an http(s):// upstream (the HTTP proxy forwards its clients' own headers)", exitUsage)
	}
	if err := checkAim("record", up, headers, aimOf(c, nil)); err != nil {
		return err
	}
	path := c.String("out")
	if stdio && path == "-" {
		return cli.Exit("record: --out - is the host's stdout with --stdio: name a file", exitUsage)
	}
	// Everything that can fail before the first message is done before the
	// recording is created: a refused --listen leaves no file behind to
	// refuse the retry.
	var ln net.Listener
	if stdio && up.Kind == targets.Stdio && len(up.Argv) > 0 {
		if _, err := exec.LookPath(up.Argv[0]); err != nil {
			return cli.Exit(fmt.Sprintf("record: --upstream %s: %v", up.Redacted(), err), exitFail)
		}
	}
	if !stdio {
		if up.Kind != targets.HTTP {
			return cli.Exit(fmt.Sprintf("record: the HTTP proxy forwards to an http(s):// Streamable HTTP upstream, not %s", up.Redacted()), exitUsage)
		}
		bind, warn, err := listenAddress(listen)
		if err != nil {
			return cli.Exit("record: "+err.Error(), exitUsage)
		}
		if ln, err = net.Listen("tcp", bind); err != nil {
			return cli.Exit(fmt.Sprintf("record: --listen %s: %v", listen, err), exitFail)
		}
		defer ln.Close()
		if warn != "" {
			fmt.Fprintln(c.App.ErrWriter, "readbench record: "+warn)
		}
	}
	out, closeOut, err := recordOut(c, path)
	if err != nil {
		return err
	}
	o := record.Options{Upstream: up, Out: out, RedactURIs: c.Bool("redact-uris"), Burst: c.Duration("burst"), Headers: headers}
	if path != "-" {
		o.SpillDir = filepath.Dir(path) // a disk, where the temporary folder may be memory (tmpfs)
	}
	if stdio {
		err = record.Stdio(c.Context, o, os.Stdin, c.App.Writer, c.App.ErrWriter)
	} else {
		err = recordHTTP(c.Context, o, ln, c)
	}
	if cerr := closeOut(); err == nil && cerr != nil {
		err = cli.Exit(fmt.Sprintf("record: %v", cerr), exitFail)
	}
	if err != nil {
		return exitFor("record: ", err)
	}
	return stopped(c.Context)
}

// recordOut opens the recording: stdout for "-", else a new file
// (written as it goes: a recording killed mid-way keeps its lines).
func recordOut(c *cli.Context, path string) (out interface{ Write([]byte) (int, error) }, closeOut func() error, err error) {
	if path == "-" {
		return c.App.Writer, func() error { return nil }, nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if c.Bool("force") {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil, nil, cli.Exit(fmt.Sprintf("record: --out %s exists (--force overwrites it)", path), exitUsage)
	}
	if err != nil {
		return nil, nil, cli.Exit(fmt.Sprintf("record: %v", err), exitFail)
	}
	return f, f.Close, nil
}

// recordHTTP serves the proxy on ln until ctx ends.
func recordHTTP(ctx context.Context, o record.Options, ln net.Listener, c *cli.Context) error {
	p, err := record.NewHTTP(o)
	if err != nil {
		return cli.Exit("record: "+err.Error(), exitUsage)
	}
	hs := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, Protocols: new(http.Protocols)}
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetUnencryptedHTTP2(true) // clients that speak h2c with prior knowledge are recorded too
	fmt.Fprintf(c.App.ErrWriter, "readbench record: proxy on http://%s/mcp to %s\n", ln.Addr(), o.Upstream.Redacted())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return cli.Exit(fmt.Sprintf("record: %v", err), exitFail)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if hs.Shutdown(sctx) != nil {
		hs.Close() // a stream still open (a client's GET for notifications)
	}
	<-errc
	return p.Close()
}

// listenAddress is where `record --listen addr` binds, and what it must
// say first. The proxy forwards its clients' credentials to the upstream
// and records what they read, so it stays on this machine unless told
// otherwise: a bare :PORT binds 127.0.0.1 (Go's net.Listen would bind
// every interface), and a host that is not loopback (0.0.0.0, [::], an
// interface's address, a name) is bound as asked, with a warning.
func listenAddress(addr string) (bind, warn string, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "", "", fmt.Errorf("--listen %s: want HOST:PORT, such as 127.0.0.1:9000 (or :9000, which is 127.0.0.1:9000)", addr)
	}
	switch {
	case host == "":
		return net.JoinHostPort("127.0.0.1", port), "", nil
	case protocol.IsLoopbackHost(host):
		return addr, "", nil
	}
	where := "the interfaces of " + host
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		where = "every network interface"
	}
	return addr, fmt.Sprintf("warning: --listen %s binds %s: anyone who reaches it reads through the proxy with the upstream's trust, and is recorded; 127.0.0.1:%s keeps it on this machine", addr, where, port), nil
}
