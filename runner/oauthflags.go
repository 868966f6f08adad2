package runner

import (
	"fmt"
	"maps"
	"strings"

	"github.com/readbench/readbench/workload"
)

// OAuthFlags are the --oauth-* flags a command was given, by name
// ("oauth-client-id", "oauth-param"; a flag not given is absent), each
// with its values (one, but --oauth-param's words). They win over the
// workload's auth.oauth (Merge), so that a run, a capacity search or a
// login can be pointed at an authorization server without editing the
// workload. The command only collects them; the merge, and the tokens it
// leads to (OAuthConfig), are the run's.
type OAuthFlags map[string][]string

// Merge is wa's auth.oauth with f applied (the flags win); nil when
// neither asks for OAuth. An error is a --oauth-param that is not
// NAME=VALUE.
func (f OAuthFlags) Merge(wa *workload.Auth) (*workload.OAuth, error) {
	var o workload.OAuth
	ok := wa != nil && wa.OAuth != nil
	if ok {
		o = *wa.OAuth
	}
	for name, to := range map[string]*string{
		"oauth-client-id": &o.ClientID, "oauth-client-secret": &o.ClientSecret, "oauth-private-key": &o.PrivateKey,
		"oauth-scope": &o.Scope, "oauth-grant": &o.Grant,
	} {
		if v, given := f[name]; given && len(v) > 0 {
			*to, ok = v[len(v)-1], true
		}
	}
	if params, given := f["oauth-param"]; given {
		var err error
		if o.TokenParams, err = withParams(o.TokenParams, params); err != nil {
			return nil, err
		}
		ok = true
	}
	if !ok {
		return nil, nil
	}
	return &o, nil
}

// Into puts f into w's auth block, so that the result records
// the authorization a run used (its secret redacted) and --like runs it
// again.
func (f OAuthFlags) Into(w *workload.Workload) {
	if o, err := f.Merge(w.Auth); o != nil && err == nil {
		w.Auth = &workload.Auth{OAuth: o}
	}
}

// withParams is the workload's token parameters with --oauth-param's
// NAME=VALUE added: a NAME the flags give replaces the workload's, and
// a NAME given twice has both values.
func withParams(from map[string][]string, flags []string) (map[string][]string, error) {
	out := maps.Clone(from)
	if out == nil {
		out = map[string][]string{}
	}
	given := map[string]bool{}
	for _, f := range flags {
		name, value, found := strings.Cut(f, "=")
		if !found || name == "" {
			return nil, fmt.Errorf("--oauth-param %q: want NAME=VALUE, as in audience=https://api.example.com", f)
		}
		if !given[name] {
			out[name], given[name] = nil, true
		}
		out[name] = append(out[name], value)
	}
	return out, nil
}
