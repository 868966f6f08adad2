package simserver

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"testing"
)

// TestParsePublicKeyPEM: every PEM form of a key gives its public half;
// anything else is an error.
func TestParsePublicKeyPEM(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rk, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	block := func(typ string, b []byte, err error) []byte {
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b})
	}
	pkix := func(k any) []byte { b, err := x509.MarshalPKIXPublicKey(k); return block("PUBLIC KEY", b, err) }
	pkcs8 := func(k any) []byte { b, err := x509.MarshalPKCS8PrivateKey(k); return block("PRIVATE KEY", b, err) }
	ecDER, ecErr := x509.MarshalECPrivateKey(ec)
	for _, c := range []struct {
		name string
		pem  []byte
		ok   bool
	}{
		{"EC public", pkix(&ec.PublicKey), true},
		{"EC private", block("EC PRIVATE KEY", ecDER, ecErr), true},
		{"EC PKCS8", pkcs8(ec), true},
		{"RSA PKCS1 public", block("RSA PUBLIC KEY", x509.MarshalPKCS1PublicKey(&rk.PublicKey), nil), true},
		{"RSA PKCS1 private", block("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rk), nil), true},
		{"Ed25519 PKCS8", pkcs8(ed), true},
		{"certificate", block("CERTIFICATE", []byte{1, 2, 3}, nil), false},
		{"broken", block("PUBLIC KEY", []byte{1, 2, 3}, nil), false},
		{"not PEM", []byte("hello"), false},
	} {
		k, err := ParsePublicKeyPEM(c.pem)
		if (err == nil) != c.ok || (c.ok && k == nil) {
			t.Errorf("%s: %T %v", c.name, k, err)
		}
	}
}

// FuzzParsePublicKeyPEM: a key file never panics the parser, and what it
// accepts is a key that can check an assertion.
func FuzzParsePublicKeyPEM(f *testing.F) {
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n"))
	f.Add([]byte("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := ParsePublicKeyPEM(b)
		if err == nil && k == nil {
			t.Fatal("no key and no error")
		}
	})
}
