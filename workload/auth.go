package workload

import (
	"slices"
)

// Auth is the workload's auth block: how readbench is authorized by an
// OAuth-protected server (MCP authorization). nil: no authorization but
// what headers carry.
type Auth struct {
	OAuth *OAuth // key "oauth"
}

// OAuth is an OAuth client: its grant and credentials. ClientSecret is as
// written (it may be ${VAR}, expanded when the run starts) and is never
// saved; PrivateKey is the path of a PEM file, for private_key_jwt.
type OAuth struct {
	Grant             string // "client_credentials" (default) or "authorization_code" (readbench login's cached tokens)
	ClientID          string
	ClientSecret      string
	Scope             string // space-separated
	PrivateKey        string // a file
	TokenEndpointAuth string // client_secret_basic, client_secret_post, private_key_jwt, none; "": chosen from the server's metadata
	// TokenParams are extra fields of every token request (Auth0's
	// audience, a provider's own resource), each one value or several;
	// ${VAR} expands from the environment.
	TokenParams map[string][]string
}

// The values auth.oauth.grant and auth.oauth.token_endpoint_auth take.
var (
	OAuthGrants      = []string{"client_credentials", "authorization_code"}
	OAuthAuthMethods = []string{"client_secret_basic", "client_secret_post", "private_key_jwt", "none"}
)

// checkAuth reports an auth block that cannot work.
func (w *Workload) checkAuth(add func(*Error)) {
	if w.Auth == nil || w.Auth.OAuth == nil {
		return
	}
	o := w.Auth.OAuth
	if o.Grant != "" && !slices.Contains(OAuthGrants, o.Grant) {
		add(errorf("auth.oauth.grant", "want client_credentials or authorization_code, got %q", o.Grant))
	}
	if o.TokenEndpointAuth != "" && !slices.Contains(OAuthAuthMethods, o.TokenEndpointAuth) {
		add(errorf("auth.oauth.token_endpoint_auth", "want client_secret_basic, client_secret_post, private_key_jwt or none, got %q", o.TokenEndpointAuth))
	}
	if (o.Grant == "" || o.Grant == "client_credentials") && o.ClientID == "" {
		add(errorf("auth.oauth.client_id", "the client_credentials grant needs a client_id"))
	}
	if o.ClientSecret != "" && o.PrivateKey != "" {
		add(errorf("auth.oauth.private_key", "give client_secret or private_key, not both"))
	}
}
