// Package h2peers starts real HTTP/2 MCP servers that no one here wrote,
// for the tests of readbench's HTTP/2 support: each one's HTTP/2 is
// someone else's, so that readbench is judged against other people's
// framing, flow control and ALPN rather than against its own.
//
//   - NginxEverything: Debian's nginx as a TLS HTTP/2 front (ALPN h2)
//     proxying over HTTP/1.1 to @modelcontextprotocol/server-everything in
//     its Streamable HTTP mode (Nginx fronts any HTTP/1.1 upstream);
//   - NodeSDK: the official TypeScript SDK's Streamable HTTP transport
//     served by Node's own node:http2, over TLS or cleartext (h2c with
//     prior knowledge), stateless or stateful (peers/sdk-http2.mjs);
//   - GoSDK: the official Go SDK's handler served by net/http's HTTP/2,
//     over TLS or h2c.
//
// Every peer listens on 127.0.0.1 only, is stopped when the test ends and
// speaks HTTP/2 only: an HTTP/1.1 client is refused (nginx, whose h2
// listener also takes HTTP/1.1 over TLS, is the exception). A TLS peer's
// certificate is made here (NewCert) and trusted through Peer.CAFile (for
// SSL_CERT_FILE) or Peer.Pool.
//
// What a peer needs from outside Go (nginx, node, the npm packages of
// peers/) is asked for through internal/needs: missing, the test fails in
// CI and is skipped elsewhere, naming the command that installs it.
// Test code only: nothing outside _test.go files imports it.
package h2peers

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The commands that install what the peers need (internal/needs).
const (
	InstallPeers = "make deps (it runs npm ci in peers/)"
	InstallNode  = "apt-get install nodejs npm (then make deps)"
	InstallNginx = "make deps (it runs apt-get install nginx)"
)

// Peer is one running HTTP/2 MCP server.
type Peer struct {
	// Name says what serves, over what: "nginx/1.22.1 (TLS h2) →
	// server-everything (HTTP/1.1)".
	Name string
	// URL is the MCP endpoint: https://127.0.0.1:PORT/mcp, or http://…
	// for h2c (cleartext HTTP/2 with prior knowledge, no Upgrade).
	URL string
	// CAFile is the PEM file of the certificate to trust (SSL_CERT_FILE,
	// or a tls.Config's RootCAs: Pool); "" for h2c.
	CAFile string
	// Pool holds that certificate; nil for h2c.
	Pool *x509.CertPool
	// Logs is the directory of the peer's logs (node's output; nginx's
	// error.log and access.log, which logs each request's protocol), ""
	// for the Go SDK, which runs in the test's process.
	Logs string
}

// H2C reports whether the peer speaks cleartext HTTP/2 rather than TLS.
func (p *Peer) H2C() bool { return strings.HasPrefix(p.URL, "http://") }

// Transport returns a net/http transport of the standard library that
// speaks HTTP/2 only to the peer: over TLS with ALPN h2, trusting Pool,
// or h2c with prior knowledge. It never falls back to HTTP/1.1. The
// caller closes its idle connections when done.
func (p *Peer) Transport() *http.Transport {
	var protos http.Protocols
	tr := &http.Transport{ForceAttemptHTTP2: true, Protocols: &protos}
	if p.H2C() {
		protos.SetUnencryptedHTTP2(true)
	} else {
		protos.SetHTTP2(true)
		tr.TLSClientConfig = &tls.Config{RootCAs: p.Pool}
	}
	return tr
}

// Client is an http.Client on Transport, with a timeout of 30 s per
// request.
func (p *Peer) Client() *http.Client {
	return &http.Client{Transport: p.Transport(), Timeout: 30 * time.Second}
}

// repoFile is the path of a file of the repository, wherever the test
// runs from (each package's tests run in its own directory).
func repoFile(rel ...string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(file), "..", ".."}, rel...)...)
}

// tail is the last n bytes of the file at path, for a failure message.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	if len(b) > n {
		b = append([]byte("…"), b[len(b)-n:]...)
	}
	return string(b)
}
