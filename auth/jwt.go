package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// assertionType is the client_assertion_type of RFC 7523 §2.2.
const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// signer makes the client assertions of private_key_jwt (RFC 7523 §3):
// a short-lived JWT signed with the client's key, one per token request.
type signer struct {
	key    crypto.Signer
	method jwt.SigningMethod
}

// String never shows the key.
func (s *signer) String() string { return "private key (" + s.method.Alg() + ")" }

// parseKey reads a PEM private key (PKCS#8, SEC 1 EC or PKCS#1 RSA) and
// picks its signing algorithm: ES256/ES384/ES512 by curve, RS256 for RSA.
// Errors never quote the key.
func parseKey(pemBytes []byte) (*signer, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("private key: no PEM block")
	}
	var key any
	var err error
	if key, err = x509.ParsePKCS8PrivateKey(block.Bytes); err != nil {
		if key, err = x509.ParseECPrivateKey(block.Bytes); err != nil {
			if key, err = x509.ParsePKCS1PrivateKey(block.Bytes); err != nil {
				return nil, errors.New("private key: not a PKCS#8, EC or RSA private key")
			}
		}
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return &signer{k, jwt.SigningMethodES256}, nil
		case elliptic.P384():
			return &signer{k, jwt.SigningMethodES384}, nil
		case elliptic.P521():
			return &signer{k, jwt.SigningMethodES512}, nil
		}
		return nil, errors.New("private key: unsupported EC curve")
	case *rsa.PrivateKey:
		return &signer{k, jwt.SigningMethodRS256}, nil
	}
	return nil, fmt.Errorf("private key: unsupported type %T", key)
}

// assertion is a fresh client assertion for the token endpoint aud.
func (s *signer) assertion(clientID, aud string, now time.Time) (string, error) {
	jti := make([]byte, 16)
	_, _ = rand.Read(jti)
	claims := jwt.RegisteredClaims{
		Issuer:    clientID,
		Subject:   clientID,
		Audience:  jwt.ClaimStrings{aud},
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(5 * time.Minute)),
		ID:        hex.EncodeToString(jti),
	}
	tok, err := jwt.NewWithClaims(s.method, claims).SignedString(s.key)
	if err != nil {
		return "", fmt.Errorf("sign the client assertion: %w", err)
	}
	return tok, nil
}
