package main

import (
	"io"
	"reflect"
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
