package auth

import (
	"fmt"
	"slices"

	"golang.org/x/oauth2"
)

// The token endpoint authentication methods readbench speaks (RFC 7591
// §2, RFC 7523 for private_key_jwt).
const (
	MethodBasic = "client_secret_basic"
	MethodPost  = "client_secret_post"
	MethodJWT   = "private_key_jwt"
	MethodNone  = "none"
)

// SelectMethod chooses how a client authenticates at the token endpoint:
// the one asked for when given (it must be one the server lists, when it
// lists any), else private_key_jwt for a client with a key, else, for one
// with a secret, client_secret_basic unless the server lists only
// client_secret_post (RFC 8414: an absent list means basic) or only none,
// else none (a public client, such as a person's login).
func SelectMethod(supported []string, asked string, haveSecret, haveKey bool) (string, error) {
	offered := func(m string) bool { return len(supported) == 0 || slices.Contains(supported, m) }
	switch {
	case asked != "":
		if !slices.Contains([]string{MethodBasic, MethodPost, MethodJWT, MethodNone}, asked) {
			return "", fmt.Errorf("token endpoint auth %q: want %s, %s, %s or %s", asked, MethodBasic, MethodPost, MethodJWT, MethodNone)
		}
		if !offered(asked) {
			return "", fmt.Errorf("token endpoint auth %s is not one the authorization server supports (%v)", asked, supported)
		}
		return asked, nil
	case haveKey:
		if !offered(MethodJWT) {
			return "", fmt.Errorf("a private key was given but the authorization server does not support %s (%v)", MethodJWT, supported)
		}
		return MethodJWT, nil
	case haveSecret:
		if len(supported) == 0 || slices.Contains(supported, MethodBasic) {
			return MethodBasic, nil
		}
		if slices.Contains(supported, MethodPost) {
			return MethodPost, nil
		}
		if slices.Contains(supported, MethodNone) {
			return MethodNone, nil // a server that takes public clients needs no secret
		}
		return "", fmt.Errorf("a client secret was given but the authorization server supports neither %s nor %s (%v)", MethodBasic, MethodPost, supported)
	default:
		if len(supported) > 0 && !slices.Contains(supported, MethodNone) {
			return "", fmt.Errorf("no client secret or private key was given and the authorization server does not accept public clients (%v)", supported)
		}
		return MethodNone, nil
	}
}

// authStyle is how golang.org/x/oauth2 sends the client's credentials for
// a method: in the Authorization header for basic, in the form otherwise
// (private_key_jwt and none send no secret; the assertion is added to the
// form by the token transport).
func authStyle(method string) oauth2.AuthStyle {
	if method == MethodBasic {
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleInParams
}
