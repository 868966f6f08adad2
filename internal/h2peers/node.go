package h2peers

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// NodeMode is how NodeSDK serves.
type NodeMode struct {
	// H2C serves cleartext HTTP/2 with prior knowledge
	// (http2.createServer) instead of TLS (http2.createSecureServer,
	// ALPN h2, HTTP/1.1 refused).
	H2C bool
	// Stateless serves every POST with a new server and no session id;
	// else each session has an id (Mcp-Session-Id).
	Stateless bool
	// SSE answers each POST with an event stream instead of one JSON body.
	SSE bool
}

// String is the mode as peers/sdk-http2.mjs's arguments name it:
// "tls stateful json".
func (m NodeMode) String() string {
	return strings.Join(m.args(), " ")
}

func (m NodeMode) args() []string {
	a := []string{"tls", "stateful", "json"}
	if m.H2C {
		a[0] = "h2c"
	}
	if m.Stateless {
		a[1] = "stateless"
	}
	if m.SSE {
		a[2] = "sse"
	}
	return a
}

// NodeSDK starts peers/sdk-http2.mjs with the node on PATH: the official
// MCP TypeScript SDK's Streamable HTTP transport (@modelcontextprotocol/sdk,
// pinned in peers/) served by Node's node:http2 in mode m, on a port of
// 127.0.0.1 node picks. Its resources are doc://text/1k, doc://text/64k,
// doc://blob/4k and doc://sized/{bytes} (the script says their content).
func NodeSDK(t testing.TB, m NodeMode) *Peer {
	t.Helper()
	node := needs.Tool(t, "node", InstallNode)
	needs.File(t, repoFile("peers", "node_modules", "@modelcontextprotocol", "sdk", "package.json"),
		"@modelcontextprotocol/sdk", InstallPeers)
	a := m.args()
	argv := []string{node, repoFile("peers", "sdk-http2.mjs"), a[0], "0", a[1], a[2]}
	peer := &Peer{Logs: t.TempDir()}
	if !m.H2C {
		cert := NewCert(t)
		argv = append(argv, cert.CertFile, cert.KeyFile)
		peer.CAFile, peer.Pool = cert.CertFile, cert.Pool
	}
	logFile := filepath.Join(peer.Logs, "sdk-http2.log")
	p := start(t, logFile, false, nil, argv...)
	if !p.await(func() bool { peer.URL = nodeListening(tail(logFile, 4096)); return peer.URL != "" }) || p.hasExited() {
		t.Fatalf("%v did not listen:\n%s", argv, tail(logFile, 4096))
	}
	version, _ := exec.Command(node, "--version").Output()
	peer.Name = "node " + strings.TrimSpace(string(version)) + " node:http2 (" + m.String() + ") with @modelcontextprotocol/sdk"
	return peer
}

var nodeListeningRE = regexp.MustCompile(`sdk-http2: listening on (\S+)`)

// nodeListening is the URL sdk-http2.mjs says it listens on, or "".
func nodeListening(log string) string {
	if m := nodeListeningRE.FindStringSubmatch(log); m != nil {
		return m[1]
	}
	return ""
}
