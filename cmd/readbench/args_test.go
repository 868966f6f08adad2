package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestInterspersed(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	cases := []struct{ in, want []string }{
		{[]string{"rb", "run", "w.yaml", "--duration", "1m", "--quiet"}, []string{"rb", "run", "--duration", "1m", "--quiet", "--", "w.yaml"}},
		{[]string{"rb", "run", "--rate=5/s", "w.yaml"}, []string{"rb", "run", "--rate=5/s", "--", "w.yaml"}},
		{[]string{"rb", "run", "-q", "w.yaml", "--out", "x.json"}, []string{"rb", "run", "-q", "--out", "x.json", "--", "w.yaml"}},
		{[]string{"rb", "run"}, []string{"rb", "run"}},
		{[]string{"rb", "run", "--", "-odd-name.yaml"}, []string{"rb", "run", "--", "-odd-name.yaml"}},
		{[]string{"rb", "nosuch", "x", "--y"}, []string{"rb", "nosuch", "x", "--y"}},
		{[]string{"rb", "--help"}, []string{"rb", "--help"}},
	}
	for _, c := range cases {
		if got := interspersed(app, c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("interspersed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestParseHeadersNeverEchoValues: a malformed --header is refused with
// at most its first word, never its value (issue 47, item 18: "Authorization
// Bearer x", its colon forgotten, was printed whole).
func TestParseHeadersNeverEchoValues(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Authorization Bearer h-secret", `--header "Authorization …": want 'Name: value'`},
		{"Authorization=Bearer h-secret", `--header "Authorization …": want 'Name: value'`},
		{"h-secret-token", "--header: want 'Name: value'"},
		{"X Token: h-secret", `--header "X …": want 'Name: value'`},
		{": h-secret", "--header: want 'Name: value'"},
	} {
		_, err := parseHeaders([]string{c.in})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "h-secret") {
			t.Errorf("parseHeaders(%q) = %v, want %s and no value", c.in, err, c.want)
		}
	}
	if h, err := parseHeaders([]string{"Authorization: Bearer x"}); err != nil || h["Authorization"] != "Bearer x" {
		t.Errorf("a good header: %v, %v", h, err)
	}
}
