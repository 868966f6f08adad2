package auth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"
)

// The grants a Config may name.
const (
	GrantClientCredentials = "client_credentials"
	GrantAuthorizationCode = "authorization_code" // a person's, through readbench login; others use its cached tokens
	grantRefresh           = "refresh_token"
)

// Config is how readbench obtains tokens for one target. String never
// shows the secret or the key.
type Config struct {
	Target       string // the MCP server's URL
	Grant        string // GrantClientCredentials (the default) or GrantAuthorizationCode
	ClientID     string // a pre-registered client
	ClientSecret string // client_secret_basic or client_secret_post
	// ClientSecretEnv is the environment variable ClientSecret came from
	// ("" when it was given as it is): what login caches for a client
	// credentials login, in place of the secret.
	ClientSecretEnv string
	PrivateKey      []byte   // PEM, for private_key_jwt
	Scope           []string // asked for; none: the server's challenge, else its scopes_supported
	AuthMethod      string   // token_endpoint_auth; "": chosen from the server's metadata
	// TokenParams are added to every token request's form: what a
	// provider needs beyond the standard (Auth0's audience, a resource
	// written its own way, which replaces readbench's RFC 8707 one).
	TokenParams url.Values
	CacheDir    string // the token cache; "": DefaultCacheDir
	HTTPClient  *http.Client
	Now         func() time.Time // nil: time.Now
}

// String describes the configuration without its secrets.
func (c Config) String() string {
	var creds []string
	if c.ClientSecret != "" {
		creds = append(creds, "secret [redacted]")
	}
	if len(c.PrivateKey) > 0 {
		creds = append(creds, "private key [redacted]")
	}
	return fmt.Sprintf("oauth %s for %s, client %q %s, scope %q", c.grant(), c.Target, c.ClientID, strings.Join(creds, ", "), strings.Join(c.Scope, " "))
}

// GoString is String, so %#v cannot print the secrets either.
func (c Config) GoString() string { return c.String() }

func (c Config) grant() string {
	if c.Grant == "" {
		return GrantClientCredentials
	}
	return c.Grant
}

func (c Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c Config) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// Validate reports a configuration that cannot work, before any request.
func (c Config) Validate() error {
	switch c.grant() {
	case GrantClientCredentials:
		if c.ClientID == "" {
			return errors.New("oauth client_credentials needs a client id (--oauth-client-id or auth.oauth.client_id)")
		}
		if c.ClientSecret == "" && len(c.PrivateKey) == 0 {
			return errors.New("oauth client_credentials needs a client secret or a private key (--oauth-client-secret, --oauth-private-key)")
		}
	case GrantAuthorizationCode:
	default:
		return fmt.Errorf("oauth grant %q: want %s or %s", c.Grant, GrantClientCredentials, GrantAuthorizationCode)
	}
	if c.ClientSecret != "" && len(c.PrivateKey) > 0 {
		return errors.New("oauth: give a client secret or a private key, not both")
	}
	return CheckTokenParams(c.TokenParams)
}

// ReservedTokenParams are the token request's own fields, which extra
// parameters may not set: readbench writes them from the grant, the
// client and --oauth-scope.
var ReservedTokenParams = []string{"grant_type", "code", "code_verifier", "redirect_uri", "refresh_token",
	"client_id", "client_secret", "client_assertion", "client_assertion_type", "scope"}

// CheckTokenParams refuses extra token parameters that would set one of
// the request's own fields, or have no name.
func CheckTokenParams(p url.Values) error {
	for k := range p {
		switch {
		case k == "":
			return errors.New("oauth token parameter: an empty name (want NAME=VALUE)")
		case slices.Contains(ReservedTokenParams, k):
			return fmt.Errorf("oauth token parameter %q is the token request's own field: readbench sets it (give the scope with --oauth-scope)", k)
		}
	}
	return nil
}

// ReadPrivateKey reads a PEM private key file for private_key_jwt; the
// error names the file, never its content.
func ReadPrivateKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("oauth private key: %w", err)
	}
	if _, err := parseKey(b); err != nil {
		return nil, fmt.Errorf("oauth private key %s: %w", path, err)
	}
	return b, nil
}
