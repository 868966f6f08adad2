package workload

import (
	"slices"
	"strings"
	"testing"
)

// TestTemplateForCheck: what `readbench check` uses of a listed template:
// its names, an instance from values, and whether a listed URI is one.
func TestTemplateForCheck(t *testing.T) {
	matches := []struct {
		tmpl, uri string
		want      bool
	}{
		{"db://tables/{name}", "db://tables/users", true},
		{"db://tables/{name}", "db://tables/a/b", false},
		{"db://tables/{name}", "db://tables/", false},
		{"docs://files/{+path}", "docs://files/a/b.md", true},
		{"docs://files/{path}.json", "docs://files/x.json", true},
		{"docs://files/{path}.json", "docs://files", false},
		{"sim:///{name}?mime={mime}&size={size}", "sim:///a.md?mime=text%2Fplain&size=3", true},
		{"sim:///{name}?mime={mime}&size={size}", "sim:///catalog/a.md?mime=text%2Fplain&size=3", false},
		{"x://{?q}", "x://", false},
	}
	for _, m := range matches {
		if got := MatchesTemplate(m.tmpl, m.uri); got != m.want {
			t.Errorf("MatchesTemplate(%q, %q) = %v", m.tmpl, m.uri, got)
		}
	}
	names, err := TemplateNames("db://{schema}/tables/{name}/{+rest}")
	if err != nil || !slices.Equal(names, []string{"schema", "name", "rest"}) {
		t.Errorf("names %q, %v", names, err)
	}
	if _, err := TemplateNames("x://{?q}"); err == nil {
		t.Error("an operator template has names")
	}
	uri, err := ExpandTemplate("db://tables/{name}", map[string]string{"name": "a b"})
	if err != nil || uri != "db://tables/a%20b" {
		t.Errorf("expand: %q, %v", uri, err)
	}
	if _, err := ExpandTemplate("db://tables/{name}", nil); err == nil {
		t.Error("expanded without a value")
	}
}

func TestTemplateErrors(t *testing.T) {
	for in, want := range map[string]string{
		"docs://{a":        "a { without its }",
		"docs://a}":        "a } without its {",
		"docs://{{a}}":     "a { without its }",
		"docs://{}":        "want one variable name",
		"docs://{a,b}":     "want one variable name",
		"docs://{a:3}":     "want one variable name",
		"docs://{a*}":      "want one variable name",
		"docs://{#a}":      `operator '#' is not supported`,
		"docs://{/a}":      `operator '/' is not supported`,
		"docs://{?a}":      `operator '?' is not supported`,
		"docs://{.a}":      `operator '.' is not supported`,
		"docs://{a.b}/{c}": "",
	} {
		_, err := parseTemplate(in)
		if want == "" {
			if err != nil {
				t.Errorf("parseTemplate(%q): %v", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseTemplate(%q) = %v, want an error about %q", in, err, want)
		}
	}
}
