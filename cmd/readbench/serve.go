package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/internal/profile"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/simserver"
	"github.com/readbench/readbench/units"
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
			"        \"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}'\n\n" +
			"Resources that change (docs/simulated-server.md):\n" +
			"  readbench serve --listen 127.0.0.1:8080 --changes 5/s      # listeners' URIs change on their own\n" +
			"  curl -s -X POST 'http://127.0.0.1:8080/changes?uri=sim:///a.md'   # change one, notify its listeners\n" +
			"  readbench serve --listen 127.0.0.1:8080 --stateful         # legacy resources/subscribe, notes on GET /mcp\n" +
			"  readbench serve --listen 127.0.0.1:8080 --subscription-fault no_ack --max-listeners 1000",
		Description: "URIs describe the resource: sim:///NAME?mime=image/png&size=1834208&delay=lognormal(12ms,40ms).\n" +
			"Content is deterministic per URI; any URI that is not a sim: URI is not found (but for the\n" +
			"test:// fixtures the MCP conformance suite reads). With --listen, GET /files/<path>?<query> serves\n" +
			"sim:///<path>?<query> as raw bytes with Range, 206, 416 and HEAD (docs/check.md (over plain HTTP)).\n" +
			"--max-message gives the server a message cap, for `capacity --sweep size` to find (docs/capacity.md).\n" +
			"--cpuprofile and --memprofile profile the server until it exits (stdin's end, Ctrl-C or SIGTERM).\n" +
			"--oauth protects /mcp with OAuth and serves an authorization server beside it that approves\n" +
			"every request at once, on 127.0.0.1 only (docs/serve-oauth.md).\n" +
			"Every resource can change: the touch tool (tools/call {uri}), POST /changes?uri=URI and --changes\n" +
			"bump its revision and notify its subscribers: 2026-07-28 subscriptions/listen on every transport,\n" +
			"legacy resources/subscribe on stdio and with --stateful (docs/simulated-server.md).\n" +
			"Exit 0 when stdin ends (--stdio), 130 on Ctrl-C or SIGTERM, 1 on --crash-after or a failure.",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "stdio", Usage: "serve newline-delimited JSON-RPC on stdin/stdout"},
			&cli.StringFlag{Name: "listen", Usage: "serve Streamable HTTP at `ADDR` (endpoint /mcp, plain HTTP documents under /files/), e.g. 127.0.0.1:8080; HTTP/1.1 and h2c (HTTP/2 with prior knowledge) on the same port"},
			&cli.StringFlag{Name: "tls-cert-out", Usage: "HTTP: serve HTTPS (TLS; HTTP/2 or HTTP/1.1 by ALPN) with a new self-signed certificate for 127.0.0.1, ::1 and localhost, written as PEM to `FILE` for clients to trust (SSL_CERT_FILE=FILE readbench run ...)"},
			&cli.BoolFlag{Name: "stateful", Usage: "HTTP: issue Mcp-Session-Id on initialize (legacy era)"},
			&cli.BoolFlag{Name: "sse", Usage: "HTTP: answer every request as an SSE stream"},
			&cli.IntFlag{Name: "workers", Usage: "handle at most `N` reads at once, queue the rest (0: unlimited)"},
			&cli.DurationFlag{Name: "stall-every", Usage: "every `D`, stall all reads for --stall-for"},
			&cli.DurationFlag{Name: "stall-for", Usage: "length of each stall", Value: time.Second},
			&cli.IntFlag{Name: "crash-after", Usage: "exit with an error after `N` reads (0: never)"},
			&cli.IntFlag{Name: "wedge-after", Usage: "after `N` messages, wedge: stdio never reads stdin again (the process stays alive), HTTP never answers (0: never)"},
			&cli.BoolFlag{Name: "endless-handshake", Usage: "answer initialize and server/discover with one message that never ends (stdio: no newline; HTTP: a body of no stated length), to try a client's bound on what it keeps whole"},
			&cli.IntFlag{Name: "catalog-size", Usage: "resources in resources/list", Value: 100},
			&cli.Float64Flag{Name: "delay-scale", Usage: "multiply every read's delay by `F` (1.3: a server 30% slower, to try compare)", Value: 1},
			&cli.StringFlag{Name: "max-message", Usage: "refuse to send a read's answer over `SIZE` encoded (e.g. 256KiB), answering a JSON-RPC error -32603 that names the cap, as SDKs with a message limit do (default: no cap)"},
			&cli.StringFlag{Name: "metrics", Usage: "serve the server's read counters for Prometheus at http://ADDR/metrics: `listen=ADDR` (docs/metrics.md)"},
			&cli.StringFlag{Name: "trace-log", Usage: "append one JSON line per read to `FILE`: its uri and the W3C trace context (traceparent, tracestate) it carried in the HTTP headers and in params._meta, to join readbench's slow reads with the server's traces (docs/measurement.md, trace context)"},
			&cli.StringFlag{Name: "alter-content", Usage: "reads of URIs containing `TEXT` return other bytes of the same size and type (to try compare's content check)"},
			&cli.StringFlag{Name: "changes", Usage: "change resources on their own at `RATE` (e.g. 5/s): the URIs someone follows, round-robin in sorted order"},
			&cli.DurationFlag{Name: "keepalive", Usage: "HTTP: an SSE comment on a listen or session stream idle for `D` (0: none)", Value: 15 * time.Second},
			&cli.StringFlag{Name: "subscription-fault", Usage: "every listen and session stream misbehaves: `MODE` no_ack, wrong_subscription_id, notify_before_ack, unrequested, duplicate_notify, other_uri or ignore_unsubscribe"},
			&cli.IntFlag{Name: "max-listeners", Usage: "refuse listen streams past `N` open with -32603 \"Subscription limit reached\" (HTTP 200) (0: no limit)"},
			&cli.DurationFlag{Name: "ack-per-listener", Usage: "delay each listen's acknowledgement `D` for every listen stream open (a knee for capacity --sweep listeners; 0: none)"},
			&cli.DurationFlag{Name: "drop-streams-after", Usage: "HTTP: cut every listen and session stream `D` after it opened, without a result (0: never)"},
		}, append(oauthServeFlags(), profileFlags()...)...),
		Action: serve,
	}
}

func serve(c *cli.Context) (err error) {
	stdio, listen := c.Bool("stdio"), c.String("listen")
	if stdio == (listen != "") {
		return cli.Exit("serve: give exactly one of --stdio or --listen ADDR", exitUsage)
	}
	if f := c.Float64("delay-scale"); !(f > 0) || f > 1000 {
		return cli.Exit(fmt.Sprintf("serve: --delay-scale %v: want a factor above 0, such as 1.3", f), exitUsage)
	}
	maxMessage, err := maxMessageOf(c)
	if err != nil {
		return err
	}
	fresh, err := freshnessOptions(c)
	if err != nil {
		return err
	}
	opts := simserver.Options{
		Name: protocol.SimServerName, Version: version,
		Workers: c.Int("workers"), Stateful: c.Bool("stateful"), SSE: c.Bool("sse"),
		StallEvery: c.Duration("stall-every"), StallFor: c.Duration("stall-for"),
		CrashAfter: c.Int("crash-after"), WedgeAfter: c.Int("wedge-after"), CatalogSize: c.Int("catalog-size"),
		DelayScale: c.Float64("delay-scale"), AlterContent: c.String("alter-content"),
		MaxMessage: maxMessage, EndlessHandshake: c.Bool("endless-handshake"),
		Logf: func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) },

		Changes: fresh.Changes, KeepAlive: fresh.KeepAlive, SubscriptionFault: fresh.SubscriptionFault,
		MaxListeners: fresh.MaxListeners, AckPerListener: fresh.AckPerListener, DropStreamsAfter: fresh.DropStreamsAfter,
	}
	oauth, err := oauthServeOptions(c)
	if err != nil {
		return cli.Exit("serve: "+err.Error(), exitUsage)
	}
	if oauth != nil && stdio {
		return cli.Exit("serve: --oauth protects the HTTP endpoint: give --listen ADDR, not --stdio", exitUsage)
	}
	if oauth != nil {
		if host, _, err := net.SplitHostPort(listen); err != nil || host == "" || !protocol.IsLoopbackHost(host) {
			return cli.Exit(fmt.Sprintf("serve: --oauth: --listen %s: the authorization server approves everyone, so it listens on a loopback address only, such as 127.0.0.1:8080", listen), exitUsage)
		}
	}
	traceLog, err := openTraceLog(c.String("trace-log"))
	if err != nil {
		return cli.Exit("serve: "+err.Error(), exitUsage)
	}
	if traceLog != nil {
		opts.TraceLog = traceLog
	}
	stopProfiles, err := profile.Start(c.String("cpuprofile"), c.String("memprofile"))
	if err != nil {
		closeTraceLog(nil, traceLog)
		return cli.Exit("serve: "+err.Error(), exitUsage)
	}
	srv := simserver.New(opts)
	defer func() {
		if terr := closeTraceLog(srv, traceLog); terr != nil && err == nil {
			err = cli.Exit("serve: "+terr.Error(), exitFail)
		}
	}()
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
		err = serveHTTP(c.Context, srv, listen, c.String("tls-cert-out"), oauth, c.App.ErrWriter)
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
		return stopped(ctx)
	}
}

// stopped is how serve ends when its context does: exitInterrupted after
// SIGINT or SIGTERM, as for every command (the help says 130), with
// nothing more to print (the signal handler said "shutting down").
func stopped(ctx context.Context) error {
	if interrupted(ctx) {
		return cli.Exit("", exitInterrupted)
	}
	return nil
}

// oauthServeFlags are serve's OAuth flags (docs/serve-oauth.md).
func oauthServeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "oauth", Usage: "HTTP: require an OAuth bearer token on /mcp, and serve an authorization server (metadata, /authorize, /token, /register) on the same listener"},
		&cli.DurationFlag{Name: "oauth-token-ttl", Usage: "OAuth: access tokens last `D` (a few seconds makes clients refresh)", Value: time.Hour},
		&cli.StringFlag{Name: "oauth-scopes", Usage: "OAuth: the scopes the server knows and grants by default, space- or comma-separated", Value: "mcp:read"},
		&cli.StringFlag{Name: "oauth-required-scopes", Usage: "OAuth: the scopes a token needs for /mcp, else 403 insufficient_scope (default: --oauth-scopes)"},
		&cli.StringSliceFlag{Name: "oauth-client", Usage: "OAuth: a pre-registered client `ID:SECRET` (client_secret_basic or client_secret_post), or ID alone for a public one; repeatable"},
		&cli.StringSliceFlag{Name: "oauth-client-key", Usage: "OAuth: a pre-registered private_key_jwt client `ID:FILE`, FILE a PEM public (or private) key; repeatable"},
	}
}

// oauthServeOptions reads the OAuth flags: nil without --oauth. The
// issuer and resource URLs are filled in once the listener's address is
// known.
func oauthServeOptions(c *cli.Context) (*simserver.OAuthOptions, error) {
	if !c.Bool("oauth") {
		for _, f := range []string{"oauth-token-ttl", "oauth-scopes", "oauth-required-scopes", "oauth-client", "oauth-client-key"} {
			if c.IsSet(f) {
				return nil, fmt.Errorf("--%s needs --oauth", f)
			}
		}
		return nil, nil
	}
	o := &simserver.OAuthOptions{TokenTTL: c.Duration("oauth-token-ttl"), Scopes: scopeList(c.String("oauth-scopes"))}
	if o.TokenTTL < time.Second {
		return nil, fmt.Errorf("--oauth-token-ttl %v: want at least 1s (expires_in counts whole seconds)", o.TokenTTL)
	}
	if c.IsSet("oauth-required-scopes") {
		o.RequiredScopes = scopeList(c.String("oauth-required-scopes"))
	}
	for _, v := range c.StringSlice("oauth-client") {
		id, secret, _ := strings.Cut(v, ":")
		if id == "" {
			return nil, errors.New("--oauth-client: want ID:SECRET, or ID for a public client")
		}
		o.Clients = append(o.Clients, simserver.OAuthClient{ID: id, Secret: secret})
	}
	for _, v := range c.StringSlice("oauth-client-key") {
		id, file, ok := strings.Cut(v, ":")
		if !ok || id == "" || file == "" {
			return nil, fmt.Errorf("--oauth-client-key %q: want ID:FILE", v)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--oauth-client-key: %w", err)
		}
		k, err := simserver.ParsePublicKeyPEM(b)
		if err != nil {
			return nil, fmt.Errorf("--oauth-client-key %s: %w", file, err)
		}
		o.Clients = append(o.Clients, simserver.OAuthClient{ID: id, PublicKey: k})
	}
	return o, nil
}

// scopeList splits a list of scopes given with spaces or commas.
func scopeList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
}

// startOAuth mounts the authorization server and the protected resource
// metadata for the server listening at addr, and says where they are
// (never a client's secret).
func startOAuth(mux *http.ServeMux, o simserver.OAuthOptions, addr string, log io.Writer) (*simserver.OAuth, error) {
	o.Issuer = "http://" + addr
	o.Resource = o.Issuer + "/mcp"
	o.Logf = func(format string, args ...any) { fmt.Fprintf(log, format+"\n", args...) }
	as, err := simserver.NewOAuth(o)
	if err != nil {
		return nil, err
	}
	as.Mount(mux)
	fmt.Fprintf(log, "readbench serve: OAuth on /mcp: authorization server %s (tokens last %s, scopes %s), resource metadata %s, %d pre-registered clients\n",
		o.Issuer, numfmt.Duration(o.TokenTTL), strings.Join(o.Scopes, " "), as.ResourceMetadataURL(), len(o.Clients))
	return as, nil
}

// openTraceLog opens --trace-log FILE for appending (nil when not
// given): lines from several runs of serve pile up, as a log's do.
func openTraceLog(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--trace-log: %w", err)
	}
	return f, nil
}

// closeTraceLog closes the server (srv nil: no server was made), which
// writes the trace log's last lines and stops its own goroutines, and
// closes the trace log's file.
func closeTraceLog(srv *simserver.Server, f *os.File) error {
	if f == nil {
		if srv != nil {
			return srv.Close()
		}
		return nil
	}
	var err error
	if srv != nil {
		err = srv.Close()
	}
	if cerr := f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("--trace-log: %w", cerr)
	}
	return err
}

// maxMessageOf is --max-message in bytes (0: not given, the server's
// default).
func maxMessageOf(c *cli.Context) (int64, error) {
	if !c.IsSet("max-message") {
		return 0, nil
	}
	n, err := units.ParseSize(c.String("max-message"))
	if err == nil && n <= 0 {
		err = fmt.Errorf("want a size above 0, such as 256KiB")
	}
	if err != nil {
		return 0, cli.Exit(fmt.Sprintf("serve: --max-message: %v", err), exitUsage)
	}
	return n, nil
}

// freshnessOptions reads the flags of changing resources and
// subscriptions (docs/simulated-server.md).
func freshnessOptions(c *cli.Context) (simserver.Options, error) {
	var o simserver.Options
	if v := c.String("changes"); v != "" {
		r, err := units.ParseRate(v)
		if err != nil {
			return o, cli.Exit(fmt.Sprintf("serve: --changes: %v", err), exitUsage)
		}
		o.Changes = r.PerSecond
	}
	switch d := c.Duration("keepalive"); {
	case d < 0:
		return o, cli.Exit(fmt.Sprintf("serve: --keepalive %v: want a duration, or 0 for none", d), exitUsage)
	case d == 0:
		o.KeepAlive = -1
	default:
		o.KeepAlive = d
	}
	fault, err := simserver.ParseSubscriptionFault(c.String("subscription-fault"))
	if err != nil {
		return o, cli.Exit("serve: --subscription-fault: "+err.Error(), exitUsage)
	}
	o.SubscriptionFault = fault
	if o.MaxListeners = c.Int("max-listeners"); o.MaxListeners < 0 {
		return o, cli.Exit("serve: --max-listeners: want 0 (no limit) or more", exitUsage)
	}
	if o.AckPerListener = c.Duration("ack-per-listener"); o.AckPerListener < 0 {
		return o, cli.Exit("serve: --ack-per-listener: want a duration, or 0 for none", exitUsage)
	}
	if o.DropStreamsAfter = c.Duration("drop-streams-after"); o.DropStreamsAfter < 0 {
		return o, cli.Exit("serve: --drop-streams-after: want a duration, or 0 for never", exitUsage)
	}
	return o, nil
}
