package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/units"
	"github.com/urfave/cli/v2"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "run the simulated MCP resource server alone",
		UsageText: "readbench serve --stdio\n" +
			"readbench serve --listen 127.0.0.1:8080\n\n" +
			"Then, for example:\n" +
			"  readbench run --target http://127.0.0.1:8080/mcp\n" +
			"  curl -s -r 0-99 'http://127.0.0.1:8080/files/log.txt?mime=text/plain&size=100000'   # plain HTTP, a Range\n" +
			"  curl -s http://127.0.0.1:8080/mcp -H 'Content-Type: application/json' \\\n" +
			"    -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \\\n" +
			"    -H 'Mcp-Method: resources/read' -H 'Mcp-Name: sim:///a?mime=text/markdown&size=100' \\\n" +
			"    -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"sim:///a?mime=text/markdown&size=100\",\n" +
			"        \"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}'",
		Description: "URIs describe the resource: sim:///NAME?mime=image/png&size=1834208&delay=lognormal(12ms,40ms).\n" +
			"Content is deterministic per URI; any URI that is not a sim: URI is not found (but for the\n" +
			"test:// fixtures the MCP conformance suite reads). With --listen, GET /files/<path>?<query> serves\n" +
			"sim:///<path>?<query> as raw bytes with Range, 206, 416 and HEAD (docs/check.md (over plain HTTP)).\n" +
			"--max-message gives the server a message cap, for `capacity --sweep size` to find (docs/capacity.md).\n" +
			"--cpuprofile and --memprofile profile the server until it exits (stdin's end, Ctrl-C or SIGTERM).",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "stdio", Usage: "serve newline-delimited JSON-RPC on stdin/stdout"},
			&cli.StringFlag{Name: "listen", Usage: "serve Streamable HTTP at `ADDR` (endpoint /mcp, plain HTTP documents under /files/), e.g. 127.0.0.1:8080"},
			&cli.BoolFlag{Name: "stateful", Usage: "HTTP: issue Mcp-Session-Id on initialize (legacy era)"},
			&cli.BoolFlag{Name: "sse", Usage: "HTTP: answer every request as an SSE stream"},
			&cli.IntFlag{Name: "workers", Usage: "handle at most `N` reads at once, queue the rest (0: unlimited)"},
			&cli.DurationFlag{Name: "stall-every", Usage: "every `D`, stall all reads for --stall-for"},
			&cli.DurationFlag{Name: "stall-for", Usage: "length of each stall", Value: time.Second},
			&cli.IntFlag{Name: "crash-after", Usage: "exit with an error after `N` reads (0: never)"},
			&cli.IntFlag{Name: "wedge-after", Usage: "after `N` messages, wedge: stdio never reads stdin again (the process stays alive), HTTP never answers (0: never)"},
			&cli.IntFlag{Name: "catalog-size", Usage: "resources in resources/list", Value: 100},
			&cli.Float64Flag{Name: "delay-scale", Usage: "multiply every read's delay by `F` (1.3: a server 30% slower, to try compare)", Value: 1},
			&cli.StringFlag{Name: "max-message", Usage: "refuse to send a read's answer over `SIZE` encoded (e.g. 256KiB), answering a JSON-RPC error -32603 that names the cap, as SDKs with a message limit do (default: no cap)"},
			&cli.StringFlag{Name: "metrics", Usage: "serve the server's read counters for Prometheus at http://ADDR/metrics: `listen=ADDR` (docs/metrics.md)"},
			&cli.StringFlag{Name: "alter-content", Usage: "reads of URIs containing `TEXT` return other bytes of the same size and type (to try compare's content check)"},
		}, profileFlags()...),
		Action: serve,
	}
}

func serve(c *cli.Context) error {
	stdio, listen := c.Bool("stdio"), c.String("listen")
	if stdio == (listen != "") {
		return cli.Exit("serve: give exactly one of --stdio or --listen ADDR", exitUsage)
	}
	if f := c.Float64("delay-scale"); !(f > 0) || f > 1000 {
		return cli.Exit(fmt.Sprintf("serve: --delay-scale %v: want a factor above 0, such as 1.3", f), exitUsage)
	}
	var maxMessage int64
	if c.IsSet("max-message") {
		n, err := units.ParseSize(c.String("max-message"))
		if err != nil || n <= 0 {
			if err == nil {
				err = fmt.Errorf("want a size above 0, such as 256KiB")
			}
			return cli.Exit(fmt.Sprintf("serve: --max-message: %v", err), exitUsage)
		}
		maxMessage = n
	}
	opts := simserver.Options{
		Name: protocol.SimServerName, Version: version,
		Workers: c.Int("workers"), Stateful: c.Bool("stateful"), SSE: c.Bool("sse"),
		StallEvery: c.Duration("stall-every"), StallFor: c.Duration("stall-for"),
		CrashAfter: c.Int("crash-after"), WedgeAfter: c.Int("wedge-after"), CatalogSize: c.Int("catalog-size"),
		DelayScale: c.Float64("delay-scale"), AlterContent: c.String("alter-content"),
		MaxMessage: maxMessage,
		Logf:       func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) },
	}
	stopProfiles, err := startProfiles(c.String("cpuprofile"), c.String("memprofile"))
	if err != nil {
		return cli.Exit("serve: "+err.Error(), exitUsage)
	}
	srv := simserver.New(opts)
	ms, err := serveMetrics(c.String("metrics"), srv, opts, c.App.ErrWriter)
	if err != nil {
		_ = stopProfiles()
		return cli.Exit(err.Error(), exitUsage)
	}
	if ms != nil {
		defer ms.Close(0)
	}
	if stdio {
		err = serveStdio(c.Context, srv)
	} else {
		err = serveHTTP(c.Context, srv, listen, c.App.ErrWriter)
	}
	if perr := stopProfiles(); perr != nil && err == nil {
		err = cli.Exit(fmt.Sprintf("serve: writing the profiles: %v", perr), exitFail)
	}
	return err
}

// serveStdio serves until stdin ends, the context is cancelled (Ctrl-C)
// or the server crashes on purpose (--crash-after). A read from a blocking
// os.Stdin cannot be interrupted, so on Ctrl-C or a crash the serving
// goroutine is left to the process's exit, which follows at once.
func serveStdio(ctx context.Context, srv *simserver.Server) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.ServeStdio(ctx, os.Stdin, os.Stdout) }()
	select {
	case err := <-errc:
		if err != nil {
			return cli.Exit(fmt.Sprintf("serve: %v", err), exitFail)
		}
		return nil
	case <-srv.Crashed():
		return cli.Exit("serve: "+simserver.ErrCrashed.Error(), exitFail)
	case <-ctx.Done():
		return nil
	}
}

func serveHTTP(ctx context.Context, srv *simserver.Server, addr string, log interface{ Write([]byte) (int, error) }) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return cli.Exit(fmt.Sprintf("serve: %v", err), exitFail)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	mux.Handle(simserver.FilesPrefix, srv.Files())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(log, "readbench serve: Streamable HTTP on http://%s/mcp, documents on http://%s%s\n", ln.Addr(), ln.Addr(), simserver.FilesPrefix)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var crashed bool
	select {
	case err := <-errc:
		return cli.Exit(fmt.Sprintf("serve: %v", err), exitFail)
	case <-srv.Crashed():
		crashed = true
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return cli.Exit(fmt.Sprintf("serve: %v", err), exitFail)
	}
	if crashed {
		return cli.Exit("serve: "+simserver.ErrCrashed.Error(), exitFail)
	}
	return nil
}
