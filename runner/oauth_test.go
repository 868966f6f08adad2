package runner

import "testing"

// TestSecretEnv: only a secret given as one variable names one, for the
// cache of a client credentials login.
func TestSecretEnv(t *testing.T) {
	for raw, want := range map[string]string{
		"${RB_SECRET}": "RB_SECRET", "$RB_SECRET": "RB_SECRET", "s3cret": "", "${A}${B}": "", "pre${A}": "", "": "", "$1x": "",
	} {
		if got := secretEnv(raw); got != want {
			t.Errorf("secretEnv(%q) = %q, want %q", raw, got, want)
		}
	}
}
