package driver

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The driver is tested against the official Go SDK's server: a peer no one
// here wrote. For stdio the test binary re-executes itself as that server
// (the os/exec helper-process pattern), so the pipes and the process are
// real.

const sdkPeerEnv = "READBENCH_TEST_SDK_PEER"

// Resources the SDK peer serves, with their exact decoded sizes.
var sdkDocs = []struct {
	uri, mime string
	size      int
	binary    bool
}{
	{"docs://onboarding/engineering", "text/markdown", 9000, false},
	{"file:///repo/architecture.png", "image/png", 204802, true},
	{"docs://unicode", "text/plain", 3001, false},
}

// sdkContent is the deterministic payload of sdkDocs[i]: PNG magic for the
// binary one, text with quotes, newlines and non-ASCII for the others.
func sdkContent(i int) []byte {
	d := sdkDocs[i]
	var b bytes.Buffer
	if d.binary {
		b.WriteString("\x89PNG\r\n\x1a\n")
		for b.Len() < d.size {
			b.WriteByte(byte(b.Len()*31 + 7))
		}
	} else {
		for b.Len() < d.size {
			b.WriteString("# Title \"quoted\" é 日本\n\t- item \\ done\n")
		}
	}
	out := b.Bytes()[:d.size]
	if !d.binary { // never cut a rune in half
		for len(out) > 0 && !utf8Valid(out) {
			out = out[:len(out)-1]
		}
		out = append(out, bytes.Repeat([]byte("x"), d.size-len(out))...)
	}
	return out
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

func newSDKServer(delay time.Duration) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-peer", Version: "9.9.9"}, nil)
	for i, d := range sdkDocs {
		content := sdkContent(i)
		s.AddResource(&mcp.Resource{URI: d.uri, MIMEType: d.mime, Name: d.uri}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			rc := &mcp.ResourceContents{URI: d.uri, MIMEType: d.mime}
			if d.binary {
				rc.Blob = content
			} else {
				rc.Text = string(content)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
		})
	}
	return s
}

// mcpgoStdioPeer is the sdkPeerEnv value that makes the test binary the
// mcp-go peer over stdio (serveMCPGoStdio).
const mcpgoStdioPeer = "mcpgo-stdio"

func TestMain(m *testing.M) {
	switch os.Getenv(sdkPeerEnv) {
	case "stdio":
		if err := newSDKServer(2*time.Millisecond).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "sdk peer:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case mcpgoStdioPeer:
		os.Exit(serveMCPGoStdio())
	case scriptedStdioPeer:
		os.Exit(serveScriptedStdio())
	}
	os.Exit(m.Run())
}

// startSDKHTTP serves the SDK peer over Streamable HTTP on 127.0.0.1.
func startSDKHTTP(t *testing.T, opts *mcp.StreamableHTTPOptions) string {
	t.Helper()
	srv := newSDKServer(2 * time.Millisecond)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	return serveLocal(t, h).URL + "/mcp"
}

// startPeerProcess re-executes the test binary as the stdio peer of the
// given mode (see TestMain) and returns the transport to it.
func startPeerProcess(t *testing.T, mode string) *stdioTransport {
	t.Helper()
	t.Setenv(sdkPeerEnv, mode)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := startStdio([]string{exe}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
