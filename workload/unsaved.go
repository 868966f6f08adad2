package workload

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/readbench/readbench/targets"
)

// The secrets a saved workload does not keep (savedjson.go): a workload
// read back from a result has placeholders in their place, and is refused
// until they are given again, so that no run sends a placeholder as a
// secret.

// checkUnsaved refuses the secrets a saved workload could not keep: a
// header value or client secret that is still Redacted, a target
// URL whose password or secret query parameter is still the mask, a stdio command word that still
// holds the mask where a secret was (targets.Target.MaskedArgs). A workload read back from a
// result (UnmarshalJSON) has them until the command line gives them again;
// run with them, it would send the placeholder as the secret.
func (w *Workload) checkUnsaved(add func(*Error)) {
	for _, name := range slices.Sorted(maps.Keys(w.Headers)) {
		if w.Headers[name] == Redacted {
			add(errorf("headers."+name, "the value is %s, the placeholder a result saves instead of a header's value: give the value again with --header '%s: …'", Redacted, name))
		}
	}
	if u, err := url.Parse(w.Target.Address); err == nil {
		if p, ok := u.User.Password(); ok && p == maskedPassword {
			add(errorf("target", "the URL's password is masked (%s), as a result saves it: give the target again with --target", maskedPassword))
		}
		q := u.Query()
		for _, k := range slices.Sorted(maps.Keys(q)) {
			if targets.SecretSetting(k) && slices.Contains(q[k], maskedPassword) {
				add(errorf("target", "the URL's %s is masked (%s), as a result saves it: give the target again with --target", k, maskedPassword))
			}
		}
	}
	w.checkUnsavedChange(add)
	for _, a := range w.Target.MaskedArgs() {
		if name, _, ok := strings.Cut(strings.TrimLeft(a, "-"), "="); ok && targets.SecretSetting(name) {
			add(errorf("target", "the argument %s is masked, as a result saves it: give the target again with --target, or export %s in the environment readbench runs in (a stdio server inherits it) and leave it off the command line", a, name))
			continue
		}
		add(errorf("target", "the argument %s is masked, as a result saves it: give the target again with --target (a server that also reads the secret from its environment can be given it there instead, off the command line)", a))
	}
}

// maskedPassword is what targets.RedactSecrets puts in place of a URL's
// password.
const maskedPassword = targets.Masked

// Unsaved reports the OAuth client secret a workload read back from a
// result does not have (Redacted in its place), naming the flag
// that gives it; nil when the secret is a real one. The command line
// checks it after its --oauth-* flags, which may give the secret again.
func (o OAuth) Unsaved() error {
	if o.ClientSecret == Redacted {
		return errors.New("auth.oauth.client_secret: a result does not save the client secret: give it again with --oauth-client-secret")
	}
	for _, k := range slices.Sorted(maps.Keys(o.TokenParams)) {
		if slices.Contains(o.TokenParams[k], Redacted) {
			return fmt.Errorf("auth.oauth.token_params.%s: a result does not save a secret token parameter: give it again with --oauth-param '%s=…'", k, k)
		}
	}
	return nil
}
