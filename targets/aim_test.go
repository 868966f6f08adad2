package targets

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckAim(t *testing.T) {
	target := func(s string) Target {
		tg, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	auth := map[string]string{"Authorization": "Bearer s3cret"}
	cases := []struct {
		target  string
		headers map[string]string
		aim     Aim
		want    string // "" allowed; else a part of the refusal
	}{
		{"embedded", auth, Aim{}, ""},
		{"stdio:./server --stdio", auth, Aim{}, ""},
		{"http://127.0.0.1:8080/mcp", auth, Aim{}, ""},
		{"http://localhost/mcp", auth, Aim{}, ""},
		{"sse+http://[::1]:9/sse", auth, Aim{}, ""},
		{"https://example.invalid/mcp", nil, Aim{}, "add --allow-host example.invalid to the command line, or allow_hosts: [example.invalid]"},
		{"sse+https://example.invalid/sse", nil, Aim{}, "--allow-host example.invalid"},
		{"range+http://127.0.0.1:8080/files/", auth, Aim{}, ""},
		{"range+https://example.invalid/files/", nil, Aim{}, "target range+https://example.invalid/files/: example.invalid is not this machine"},
		{"range+http://example.invalid/files/", auth, Aim{AllowHosts: []string{"example.invalid"}}, "in clear text over http://"},
		{"https://example.invalid/mcp", auth, Aim{AllowHosts: []string{"Example.Invalid."}}, ""},
		{"https://example.invalid/mcp", auth, Aim{AllowHosts: []string{"example.invalid:443"}}, ""},
		{"https://example.invalid:8443/mcp", nil, Aim{AllowHosts: []string{"example.invalid:443"}}, "--allow-host example.invalid"},
		{"https://other.invalid/mcp", nil, Aim{AllowHosts: []string{"example.invalid"}}, "--allow-host other.invalid"},
		{"http://[2001:db8::1]:80/mcp", nil, Aim{}, "--allow-host [2001:db8::1]"},
		{"http://example.invalid/mcp", nil, Aim{AllowHosts: []string{"example.invalid"}}, ""},
		{"http://example.invalid/mcp", auth, Aim{AllowHosts: []string{"example.invalid"}}, "the header Authorization would go to example.invalid in clear text over http://: use https://, or add --insecure-credentials"},
		{"http://user:pw@example.invalid/mcp", nil, Aim{AllowHosts: []string{"example.invalid"}}, "the URL's user and password"},
		{"http://example.invalid/mcp", auth, Aim{AllowHosts: []string{"example.invalid"}, InsecureCredentials: true}, ""},
	}
	for _, c := range cases {
		err := CheckAim(target(c.target), c.headers, c.aim)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %+v: refused: %v", c.target, c.aim, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrAim)):
			t.Errorf("%s %+v: %v, want a refusal saying %q", c.target, c.aim, err, c.want)
		case err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "pw@")):
			t.Errorf("%s: the refusal shows a secret: %v", c.target, err)
		}
	}
}
