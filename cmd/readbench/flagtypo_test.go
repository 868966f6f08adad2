package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestMisspeltFlag: a misspelt flag is a usage error that names the
// closest flag of the command, as a misspelt workload key is answered.
func TestMisspeltFlag(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--duraton", "1s"}, "-duraton (did you mean --duration?) (see 'readbench run --help')"},
		{[]string{"check", "--sampel=3"}, "(did you mean --sample?)"},
		{[]string{"capacity", "--handshake-timout", "1s"}, "(did you mean --handshake-timeout?)"},
		{[]string{"--verson"}, "(did you mean --version?) (see 'readbench --help')"},
		{[]string{"run", "--zzz"}, "-zzz (see 'readbench run --help')"},
		// urfave/cli's own cli.SuggestFlag (Jaro-Winkler, no threshold) would
		// answer these with -q, --oauth-scope, --rate and --memprofile.
		{[]string{"run", "--qq"}, "-qq (see 'readbench run --help')"},
		{[]string{"run", "--bogus"}, "-bogus (see 'readbench run --help')"},
		{[]string{"run", "--workers", "3"}, "-workers (see 'readbench run --help')"},
		{[]string{"run", "--verbose"}, "-verbose (see 'readbench run --help')"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"readbench"}, c.args...), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit %d and %q", c.args, code, stderr.String(), exitUsage, c.want)
		}
	}
}
