package h2peers

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"

	"github.com/readbench/readbench/simserver"
)

// Cert is a self-signed certificate for 127.0.0.1, ::1 and localhost
// (ECDSA P-256), its own authority: the
// one certificate a client trusts to reach a TLS peer.
type Cert struct {
	// CertFile and KeyFile are its PEM files, in a temporary directory of
	// the test. CertFile is also the CA file a client trusts.
	CertFile, KeyFile string
	// Pool holds the certificate, for a tls.Config's RootCAs.
	Pool *x509.CertPool
	// Pair is the certificate with its key, for a Go server's tls.Config.
	Pair tls.Certificate
}

// NewCert makes a Cert (simserver.SelfSignedCert's).
func NewCert(t testing.TB) *Cert {
	t.Helper()
	certPEM, keyPEM, err := simserver.SelfSignedCert()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c := &Cert{CertFile: filepath.Join(dir, "cert.pem"), KeyFile: filepath.Join(dir, "key.pem"), Pool: x509.NewCertPool()}
	if err := os.WriteFile(c.CertFile, certPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.KeyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	c.Pool.AppendCertsFromPEM(certPEM)
	if c.Pair, err = tls.X509KeyPair(certPEM, keyPEM); err != nil {
		t.Fatal(err)
	}
	return c
}
