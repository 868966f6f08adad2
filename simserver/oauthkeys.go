package simserver

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
)

// ParsePublicKeyPEM reads the key a private_key_jwt client's assertions
// are checked with: a PEM public key (PKIX "PUBLIC KEY" or PKCS #1 "RSA
// PUBLIC KEY"), or the client's private key itself ("PRIVATE KEY", "EC
// PRIVATE KEY", "RSA PRIVATE KEY"), whose public half is kept, so a test
// can hand the same file to the client and the server. ECDSA, RSA and
// Ed25519 keys are accepted.
func ParsePublicKeyPEM(b []byte) (crypto.PublicKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, errors.New("no PEM block")
	}
	var k any
	var err error
	switch blk.Type {
	case "PUBLIC KEY":
		k, err = x509.ParsePKIXPublicKey(blk.Bytes)
	case "RSA PUBLIC KEY":
		k, err = x509.ParsePKCS1PublicKey(blk.Bytes)
	case "PRIVATE KEY":
		k, err = x509.ParsePKCS8PrivateKey(blk.Bytes)
	case "EC PRIVATE KEY":
		k, err = x509.ParseECPrivateKey(blk.Bytes)
	case "RSA PRIVATE KEY":
		k, err = x509.ParsePKCS1PrivateKey(blk.Bytes)
	default:
		return nil, fmt.Errorf("PEM block %q is not a key", blk.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("PEM %s: %w", blk.Type, err)
	}
	if s, ok := k.(crypto.Signer); ok {
		k = s.Public()
	}
	switch k.(type) {
	case *ecdsa.PublicKey, *rsa.PublicKey, ed25519.PublicKey:
		return k, nil
	}
	return nil, fmt.Errorf("a %T key cannot check client assertions", k)
}
