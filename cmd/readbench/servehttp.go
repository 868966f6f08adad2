package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/readbench/readbench/simserver"
)

// serveHTTP serves Streamable HTTP on addr until ctx ends or the server
// crashes on purpose: HTTP/1.1 and h2c with prior knowledge on the same
// port, or, with a certificate file to write (certOut), HTTPS with HTTP/2
// and HTTP/1.1 by ALPN.
func serveHTTP(ctx context.Context, srv *simserver.Server, addr, certOut string, oauth *simserver.OAuthOptions, log io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return cli.Exit(fmt.Sprintf("serve: %v", err), exitFail)
	}
	scheme := "http"
	if certOut != "" {
		cfg, err := simserver.SelfSignedTLS(certOut)
		if err != nil {
			ln.Close()
			return cli.Exit(fmt.Sprintf("serve: --tls-cert-out: %v", err), exitFail)
		}
		ln, scheme = tls.NewListener(ln, cfg), "https"
		fmt.Fprintf(log, "readbench serve: TLS with a self-signed certificate, written to %s (SSL_CERT_FILE=%s trusts it)\n", certOut, certOut)
	}
	mux := http.NewServeMux()
	var mcp http.Handler = srv.Handler()
	if oauth != nil {
		as, err := startOAuth(mux, *oauth, ln.Addr().String(), log)
		if err != nil {
			ln.Close()
			return cli.Exit("serve: "+err.Error(), exitUsage)
		}
		defer func() { fmt.Fprintf(log, "readbench serve: OAuth %s\n", as.Counts()) }()
		mcp = as.Protect(mcp)
	}
	mux.Handle("/mcp", mcp)
	mux.Handle(simserver.FilesPrefix, srv.Files())
	mux.Handle(simserver.ChangesPath, srv.Changes())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, Protocols: new(http.Protocols)}
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetHTTP2(true)            // over TLS, by ALPN
	hs.Protocols.SetUnencryptedHTTP2(true) // h2c with prior knowledge
	fmt.Fprintf(log, "readbench serve: Streamable HTTP on %s://%s/mcp, documents on %s://%s%s\n", scheme, ln.Addr(), scheme, ln.Addr(), simserver.FilesPrefix)
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
	// Listen and session streams never end by themselves: the server's
	// Close ends them, so that Shutdown does not wait its 5 s for them.
	_ = srv.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return cli.Exit(fmt.Sprintf("serve: %v", err), exitFail)
	}
	if crashed {
		return cli.Exit("serve: "+simserver.ErrCrashed.Error(), exitFail)
	}
	return stopped(ctx)
}
