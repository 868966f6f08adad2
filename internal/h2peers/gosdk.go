package h2peers

import (
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
)

// GoSDK serves the official Go SDK's Streamable HTTP handler
// (mcp.NewStreamableHTTPHandler, with opts) for peertest's SDK server
// (peertest.Docs, each read taking 2 ms) in the test's process, with
// net/http's own HTTP/2 and nothing else (http.Server.Protocols): over
// TLS (ALPN h2, a NewCert certificate) or, when h2c, cleartext HTTP/2
// with prior knowledge. When the test ends the server is closed, then
// every session a client left open (the SDK keeps a stateful session
// until it is deleted or times out).
func GoSDK(t testing.TB, h2c bool, opts *mcp.StreamableHTTPOptions) *Peer {
	t.Helper()
	srv := peertest.SDKServer(2 * time.Millisecond)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(h)
	hs.Listener.Close()
	hs.Listener = ln
	peer := &Peer{}
	var protos http.Protocols
	hs.Config.Protocols = &protos
	if h2c {
		protos.SetUnencryptedHTTP2(true)
		hs.Start()
		peer.Name = "Go SDK, net/http (h2c)"
	} else {
		// HTTP/2 alone: with ALPN h2 alone, crypto/tls still lets a client
		// that offers only http/1.1 through, and net/http would serve it.
		protos.SetHTTP2(true)
		cert := NewCert(t)
		hs.EnableHTTP2 = true
		hs.TLS = &tls.Config{Certificates: []tls.Certificate{cert.Pair}, NextProtos: []string{"h2"}}
		hs.StartTLS()
		peer.Name = "Go SDK, net/http (TLS h2)"
		peer.CAFile, peer.Pool = cert.CertFile, cert.Pool
	}
	t.Cleanup(func() {
		hs.Close()
		for ss := range srv.Sessions() {
			ss.Close()
		}
	})
	peer.URL = hs.URL + "/mcp"
	return peer
}
