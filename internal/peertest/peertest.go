// Package peertest gives the tests of the client, the driver, the contract
// check and the server-cost sampler the same real MCP peers: servers no
// one here wrote (the official Go SDK and mcp-go), serving the same
// documents with known exact sizes, over loopback HTTP or as a child
// process behind real pipes. Test code only: nothing outside _test.go
// files imports it.
//
// A stdio peer is the test binary itself, re-executed with Env set to a
// mode: each test package's TestMain calls Main (or Run), which becomes
// the peer when Env says so and otherwise runs the tests and checks that
// they left no goroutine behind (go.uber.org/goleak).
package peertest

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// Doc is one resource the peers serve, with its exact decoded size.
type Doc struct {
	URI, MIME string
	Size      int
	Binary    bool
}

// Docs are the resources every peer serves: markdown, a PNG blob and text
// full of characters JSON must escape.
func Docs() []Doc {
	return []Doc{
		{"docs://onboarding/engineering", "text/markdown", 9000, false},
		{"file:///repo/architecture.png", "image/png", 204802, true},
		{"docs://unicode", "text/plain", 3001, false},
	}
}

// Name and Version are what every peer says about itself.
const (
	Name    = "sdk-peer"
	Version = "9.9.9"
)

// Content is the deterministic payload of Docs()[i]: PNG magic for the
// binary one, text with quotes, newlines and non-ASCII for the others.
func Content(i int) []byte {
	d := Docs()[i]
	var b bytes.Buffer
	if d.Binary {
		b.WriteString("\x89PNG\r\n\x1a\n")
		for b.Len() < d.Size {
			b.WriteByte(byte(b.Len()*31 + 7))
		}
	} else {
		for b.Len() < d.Size {
			b.WriteString("# Title \"quoted\" é 日本\n\t- item \\ done\n")
		}
	}
	out := b.Bytes()[:d.Size]
	if !d.Binary { // never cut a rune in half
		for len(out) > 0 && !utf8.Valid(out) {
			out = out[:len(out)-1]
		}
		out = append(out, bytes.Repeat([]byte("x"), d.Size-len(out))...)
	}
	return out
}

// SDKServer is the official Go SDK's server with Docs, each read taking
// delay (cancellable, as the SDK's handlers are).
func SDKServer(delay time.Duration) *mcp.Server { return SDKServerWorkers(delay, 0) }

// SDKServerWorkers is SDKServer serving at most workers reads at once
// (0: no limit), the others waiting their turn, as scripts/sdkserver
// --workers: a capacity of workers/delay reads per second, a knee that a
// capacity search against a server no one here wrote should find.
func SDKServerWorkers(delay time.Duration, workers int) *mcp.Server {
	return sdkServer(delay, workers, nil)
}

// sdkServer is SDKServerWorkers whose handler first hands every read to
// observe, when set (TracingSDKServer).
func sdkServer(delay time.Duration, workers int, observe func(*mcp.ReadResourceRequest)) *mcp.Server {
	var slots chan struct{}
	if workers > 0 {
		slots = make(chan struct{}, workers)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, nil)
	for i, d := range Docs() {
		content := Content(i)
		s.AddResource(&mcp.Resource{URI: d.URI, MIMEType: d.MIME, Name: d.URI}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			if observe != nil {
				observe(req)
			}
			if slots != nil {
				select {
				case slots <- struct{}{}:
					defer func() { <-slots }()
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return ReadResult(d, content), nil
		})
	}
	return s
}

// MCPGoServer is github.com/mark3labs/mcp-go's server with Docs, under the
// same name and version and with the same small delay as the SDK peer.
func MCPGoServer() *server.MCPServer {
	s := server.NewMCPServer(Name, Version, server.WithResourceCapabilities(false, false))
	for i, d := range Docs() {
		content := Content(i)
		s.AddResource(mcpgo.NewResource(d.URI, d.URI, mcpgo.WithMIMEType(d.MIME)), func(ctx context.Context, _ mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			select {
			case <-time.After(2 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if d.Binary {
				return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{URI: d.URI, MIMEType: d.MIME, Blob: base64.StdEncoding.EncodeToString(content)}}, nil
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: d.URI, MIMEType: d.MIME, Text: string(content)}}, nil
		})
	}
	return s
}

// ServeLocal serves h on 127.0.0.1 only, closed when the test ends.
func ServeLocal(t testing.TB, h http.Handler) *httptest.Server { return ServeLocalWith(t, h, nil) }

// ServeLocalWith is ServeLocal with the server's configuration set by
// configure before it starts (a ConnState hook that counts accepts).
func ServeLocalWith(t testing.TB, h http.Handler, configure func(*http.Server)) *httptest.Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(h)
	hs.Listener.Close()
	hs.Listener = ln
	if configure != nil {
		configure(hs.Config)
	}
	hs.Start()
	t.Cleanup(hs.Close)
	return hs
}

// StartSDKHTTP serves the SDK peer over Streamable HTTP on 127.0.0.1 and
// returns its endpoint URL.
func StartSDKHTTP(t testing.TB, opts *mcp.StreamableHTTPOptions) string {
	t.Helper()
	srv := SDKServer(2 * time.Millisecond)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	return ServeLocal(t, h).URL + "/mcp"
}

// Env names the environment variable that makes a re-executed test binary
// a stdio peer of the mode it holds.
const Env = "READBENCH_TEST_PEER"

// The stdio peers every package has.
const (
	SDKStdio   = "sdk-stdio"   // the official Go SDK's server
	MCPGoStdio = "mcpgo-stdio" // mcp-go's server
)

// Main is a test package's TestMain: the peer of the mode Env names (the
// built-in ones, or one of extra), else the tests, checked for leaked
// goroutines. It is Run with Options{Peers: extra}.
func Main(m *testing.M, extra map[string]func() int) {
	Run(m, Options{Peers: extra})
}

// Options configure Run.
type Options struct {
	// Peers are the package's own stdio peer modes, by name, beside the
	// built-in ones.
	Peers map[string]func() int
	// Setup, when set, runs before the tests (never in a peer); the
	// function it returns runs after them. An error ends the test binary.
	Setup func() (teardown func(), err error)
	// Leaks are extra goleak options, for a package whose tests leave a
	// known goroutine behind on purpose (name why beside it).
	Leaks []goleak.Option
}

// Run is a test package's TestMain: when Env names a mode the test binary
// becomes that stdio peer and exits; otherwise it runs the tests and, when
// they pass, fails the binary if any goroutine is left over
// (go.uber.org/goleak), so that a transport, a session or a run that does
// not clean up after itself is caught where it is written.
func Run(m *testing.M, o Options) {
	if mode := os.Getenv(Env); mode != "" {
		os.Exit(servePeer(mode, o.Peers))
	}
	teardown := func() {}
	if o.Setup != nil {
		td, err := o.Setup()
		if err != nil {
			fmt.Fprintln(os.Stderr, "test setup:", err)
			os.Exit(1)
		}
		if td != nil {
			teardown = td
		}
	}
	code := m.Run()
	teardown()
	if code == 0 {
		if err := goleak.Find(o.Leaks...); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: goroutines left after the tests passed: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// servePeer is the test binary as the stdio peer of mode; it returns the
// exit code.
func servePeer(mode string, extra map[string]func() int) int {
	switch {
	case mode == SDKStdio:
		if err := SDKServer(2*time.Millisecond).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "sdk peer:", err)
			return 1
		}
		return 0
	case mode == MCPGoStdio:
		if err := server.NewStdioServer(MCPGoServer()).Listen(context.Background(), os.Stdin, os.Stdout); err != nil && err != context.Canceled {
			fmt.Fprintln(os.Stderr, "mcp-go peer:", err)
			return 1
		}
		return 0
	case extra[mode] != nil:
		return extra[mode]()
	default:
		fmt.Fprintf(os.Stderr, "peertest: unknown peer mode %q\n", mode)
		return 2
	}
}

// Command returns the argv that starts the test binary as the stdio peer
// of mode (Env is set for the rest of the test).
func Command(t testing.TB, mode string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, mode)
	return []string{exe}
}

// ReadResult is the SDK's answer to a read of d with its content: a blob
// for a binary document, text otherwise, as every SDK server of the tests
// answers.
func ReadResult(d Doc, content []byte) *mcp.ReadResourceResult {
	rc := &mcp.ResourceContents{URI: d.URI, MIMEType: d.MIME}
	if d.Binary {
		rc.Blob = content
	} else {
		rc.Text = string(content)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}
}
