package runner

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// OAuthConfig is the configuration of the tokens o asks for at target
// (o: the workload's auth.oauth with a command's --oauth-* flags applied;
// nil when neither asks for OAuth): secrets expanded from the environment,
// the private key read, the whole checked. ok is false when no tokens are
// to be had. With o nil, an HTTP target that `readbench login` got into
// before uses that login's cached tokens (cached is then true). An error
// is the user's to fix (docs/workload.md, auth).
func OAuthConfig(o *workload.OAuth, target targets.Target) (cfg auth.Config, ok, cached bool, err error) {
	httpTarget := target.Kind == targets.HTTP || target.Kind == targets.SSE
	if o == nil {
		if !httpTarget {
			return cfg, false, false, nil
		}
		// No OAuth asked for, but readbench login got in here before: use it.
		if _, err := auth.LoadEntry("", target.Address); errors.Is(err, auth.ErrNoLogin) {
			return cfg, false, false, nil
		} else if err != nil {
			return cfg, true, false, err
		}
		o, cached = &workload.OAuth{Grant: auth.GrantAuthorizationCode}, true
	}
	if err := o.Unsaved(); err != nil { // run --like: the secret a result does not keep
		return cfg, true, cached, err
	}
	if !httpTarget {
		return cfg, true, cached, fmt.Errorf("OAuth is for an HTTP target; %s is not one", target.Name())
	}
	cfg = auth.Config{
		Target: target.Address, Grant: o.Grant, ClientID: o.ClientID,
		ClientSecret: os.Expand(o.ClientSecret, os.Getenv), Scope: strings.Fields(o.Scope),
		AuthMethod: o.TokenEndpointAuth, ClientSecretEnv: secretEnv(o.ClientSecret), TokenParams: expandParams(o.TokenParams),
	}
	if o.PrivateKey != "" {
		if cfg.PrivateKey, err = auth.ReadPrivateKey(o.PrivateKey); err != nil {
			return cfg, true, cached, err
		}
	}
	if cfg.Grant == auth.GrantAuthorizationCode {
		return cfg, true, cached, auth.CheckTokenParams(cfg.TokenParams) // login's client: its id and secret are in the cache
	}
	return cfg, true, cached, cfg.Validate()
}

// OAuth obtains the tokens o asks for at target (OAuthConfig) and keeps
// them fresh until Close; nil tokens when none are to be had. An
// *InputError is the user's to fix (a configuration, a secret not
// given), before any read; any other error is authorization failing at
// the target. cached says the tokens are a `readbench login`'s, which the
// command tells the user.
func (x *Extras) OAuth(ctx context.Context, o *workload.OAuth, target targets.Target) (tokens auth.Tokens, cached bool, err error) {
	cfg, ok, cached, err := OAuthConfig(o, target)
	if err != nil {
		return nil, cached, &InputError{Err: err}
	}
	if !ok {
		return nil, false, nil
	}
	src, err := x.Authorize(ctx, cfg)
	if errors.Is(err, auth.ErrNoSecret) { // what to give is the user's to say
		return nil, cached, &InputError{Err: err}
	}
	if err != nil {
		return nil, cached, err
	}
	return src, cached, nil
}

// secretEnvRE is a secret given as one environment variable and nothing
// else: $NAME or ${NAME}.
var secretEnvRE = regexp.MustCompile(`^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$`)

// secretEnv is the variable a secret is read from, "" when it was given
// as it is: a client credentials login caches that name, never the secret.
func secretEnv(raw string) string {
	m := secretEnvRE.FindStringSubmatch(raw)
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

// expandParams is the token parameters with ${VAR} expanded from the
// environment, as url.Values.
func expandParams(p map[string][]string) url.Values {
	if len(p) == 0 {
		return nil
	}
	out := make(url.Values, len(p))
	for k, vs := range p {
		for _, v := range vs {
			out[k] = append(out[k], os.Expand(v, os.Getenv))
		}
	}
	return out
}
