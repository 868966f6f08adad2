// Command sdkserver is a resource server no one here wrote — the official
// Go SDK's (github.com/modelcontextprotocol/go-sdk) — with a known read
// time and a known capacity, for the scripts that measure readbench's
// verdicts on a server of a given speed (scripts/ab-experiments.sh,
// scripts/capacity-repeat.sh) and the latency of its subscriptions
// (scripts/listen-latency.sh):
//
//	go run ./scripts/sdkserver --delay 5ms                     # stdio
//	go run ./scripts/sdkserver --delay 5ms --workers 2 --http 127.0.0.1:8090
//	go run ./scripts/sdkserver --http 127.0.0.1:8090 --stateless  # 2026-07-28 subscriptions/listen
//	go run ./scripts/sdkserver --sse 127.0.0.1:8090            # legacy HTTP+SSE, at /sse
//
// It serves --resources text resources docs://sdk/1 … docs://sdk/N of
// --size bytes each. Every read takes --delay (cancellable, as the SDK's
// handlers are), and at most --workers reads are served at once (0: no
// limit), the others wait their turn: a capacity of workers/delay reads per
// second, the knee a capacity search should find.
//
// Every resource can be subscribed to, in both eras the SDK serves
// (2026-07-28 subscriptions/listen; legacy resources/subscribe with its
// SubscribeHandler), and the tool touch {uri} announces a change of uri
// to its subscribers with the SDK's own Server.ResourceUpdated. Over
// Streamable HTTP the SDK serves subscriptions/listen statelessly
// (--stateless) and resources/subscribe on its sessions (the default).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkserver:", err)
		os.Exit(2)
	}
}

// config is what the flags ask for.
type config struct {
	delay     time.Duration
	workers   int
	resources int
	size      int
	addr      string
	stateless bool
	sse       string
}

func run(args []string) error {
	var c config
	fs := flag.NewFlagSet("sdkserver", flag.ContinueOnError)
	fs.DurationVar(&c.delay, "delay", 5*time.Millisecond, "time every read takes")
	fs.IntVar(&c.workers, "workers", 0, "reads served at once, the others wait (0: no limit)")
	fs.IntVar(&c.resources, "resources", 3, "resources served, docs://sdk/1 … docs://sdk/N")
	fs.IntVar(&c.size, "size", 4096, "bytes of each resource")
	fs.StringVar(&c.addr, "http", "", "serve streamable HTTP at `HOST:PORT` (127.0.0.1 only) instead of stdio")
	fs.BoolVar(&c.stateless, "stateless", false, "with --http: serve streamable HTTP statelessly (2026-07-28 subscriptions/listen)")
	fs.StringVar(&c.sse, "sse", "", "serve the legacy HTTP+SSE transport at `HOST:PORT` (127.0.0.1 only), endpoint /sse, instead of stdio")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.resources < 1 || c.size < 0 || c.workers < 0 || c.delay < 0 {
		return errors.New("--resources must be 1 or more, --size, --workers and --delay 0 or more")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := newServer(c)
	switch {
	case c.addr != "" && c.sse != "":
		return errors.New("--http or --sse, not both")
	case c.sse != "":
		return serveHTTP(ctx, c.sse, "/sse", mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
	case c.addr != "":
		return serveHTTP(ctx, c.addr, "/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: c.stateless}))
	default:
		return s.Run(ctx, &mcp.StdioTransport{})
	}
}

// newServer is the SDK's server with c's resources, each read holding
// one of c.workers slots for c.delay, subscriptions on and the touch tool.
func newServer(c config) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdkserver", Version: "1.0.0"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	addTouch(s)
	var slots chan struct{}
	if c.workers > 0 {
		slots = make(chan struct{}, c.workers)
	}
	body := strings.Repeat("x", c.size)
	for i := 1; i <= c.resources; i++ {
		uri := fmt.Sprintf("docs://sdk/%d", i)
		s.AddResource(&mcp.Resource{URI: uri, MIMEType: "text/plain", Name: uri}, func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			if slots != nil {
				select {
				case slots <- struct{}{}:
					defer func() { <-slots }()
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			select {
			case <-time.After(c.delay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: body}}}, nil
		})
	}
	return s
}

// touchArgs are the touch tool's arguments.
type touchArgs struct {
	URI string `json:"uri" jsonschema:"the resource that changed"`
}

// addTouch adds the tool touch {uri}, which tells uri's subscribers it
// changed (Server.ResourceUpdated), to s.
func addTouch(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "touch", Description: "announce a change of the resource uri to its subscribers"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a touchArgs) (*mcp.CallToolResult, any, error) {
			if err := s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: a.URI}); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "touched " + a.URI}}}, nil, nil
		})
}

// serveHTTP serves h at path on addr, which must be a loopback address,
// until ctx ends.
func serveHTTP(ctx context.Context, addr, path string, h http.Handler) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q: a loopback address (127.0.0.1:PORT) only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
		<-done
		return nil
	case err := <-done:
		return err
	}
}
