package yamlfile

import (
	"github.com/readbench/readbench/workload"
	"strings"
	"testing"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// TestStarterWorkload: the writer copes with what real listings hold —
// unknown sizes, no type, colliding class names, odd templates, a remote
// host, secret headers — and what it writes parses to what was observed.
func TestStarterWorkload(t *testing.T) {
	target, _ := targets.Parse("https://docs.example.com/mcp")
	cat := StarterInput{
		TargetText: "https://docs.example.com/mcp", Target: target,
		Headers: map[string]string{"Authorization": "Bearer s3cret", "X-Team": "${TEAM}"},
		Server:  "Docs Server!", Version: "2.0",
		ProtocolVersion: "2025-11-25",
		Pages:           2,
		Sampled:         1,
		Resources: []workload.Resource{
			{URI: "file:///repo/a.md", MIME: "text/markdown", Size: 5891},
			{URI: "file:///repo/b.md", MIME: "text/markdown; charset=utf-8", Size: 87788, Sampled: true},
			{URI: "file:///repo/c.md", MIME: "text/markdown", Size: workload.UnknownSize},
			{URI: "file:///repo/x.foo", MIME: "text/x-foo", Size: 10},
			{URI: "file:///repo/y.foo", MIME: "application/x-foo", Size: workload.UnknownSize},
			{URI: "file:///repo/true", MIME: "application/true", Size: 0},
			{URI: "file:///repo/blob", Size: 3},
		},
		Templates: []StarterTemplate{{URITemplate: "file:///repo/{+path}{?rev,lang}", Name: "Repo files"}, {URITemplate: "x://{a}"}},
		Warnings:  []string{"resources/list: stopped after 2 pages, the server offered more"},
	}
	text, err := Starter(cat)
	if err != nil {
		t.Fatal(err)
	}
	out := string(text)
	w, err := Parse("starter.yaml", text)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []struct{ name, mime, size string }{
		{"markdown", "text/markdown", "5837..87859"}, // written 5.7KiB..85.8KiB
		{"true", "application/true", "0..0"},
		{"x-foo", "application/x-foo", "any"},
		{"text-x-foo", "text/x-foo", "10..10"},
	}
	if len(w.Mix) != len(want) {
		t.Fatalf("%d classes, want %d:\n%s", len(w.Mix), len(want), out)
	}
	for i, c := range w.Mix {
		if c.Name != want[i].name || c.MIME != want[i].mime || c.SizeText() != want[i].size {
			t.Errorf("class %d: %s %s %s, want %+v", i, c.Name, c.MIME, c.SizeText(), want[i])
		}
		if b := c.SizeBounds(); c.MIME == "text/markdown" && (!b.Contains(5891) || !b.Contains(87788)) {
			t.Errorf("markdown bounds %v leave out what was observed", b)
		}
	}
	if w.Mix[0].Weight != 50 || w.Mix[1].Weight != 16.7 {
		t.Errorf("weights %v, %v", w.Mix[0].Weight, w.Mix[1].Weight)
	}
	if got := w.Headers; got["Authorization"] != "${READBENCH_AUTHORIZATION}" || got["X-Team"] != "${TEAM}" || strings.Contains(out, "s3cret") {
		t.Errorf("headers %v (the literal value must never be written)", got)
	}
	if len(w.AllowHosts) != 1 || w.AllowHosts[0] != "docs.example.com" {
		t.Errorf("allow_hosts %v", w.AllowHosts)
	}
	for _, s := range []string{
		"# Discovery warning: resources/list: stopped after 2 pages",
		`#   vars: {path: [VALUE], rev: [VALUE], lang: [VALUE]}`,
		`# - class: repo-files`, `# - class: template-2`,
		`#   uri: "file:///repo/readbench-no-such-resource"`,
		"1 listed resources have no MIME type",
		"name: \"docs-server-starter\"",
		"1 of unknown size need size: any",
		"size: 5.7KiB..85.8KiB ",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if _, err := Starter(StarterInput{TargetText: "x", Target: target}); err == nil || !strings.Contains(err.Error(), "nothing to build a mix from") {
		t.Errorf("empty catalog: %v", err)
	}
}

func TestRoughSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		up   bool
		want string
	}{
		{0, false, "0"}, {1023, true, "1023"}, {1024, false, "1KiB"}, {5891, false, "5.7KiB"}, {5891, true, "5.8KiB"},
		{3807400, true, "3.7MiB"}, {1 << 20, true, "1MiB"}, {1<<40 + 1, true, "1.1TiB"},
	} {
		got := roughSize(c.n, c.up)
		if got != c.want {
			t.Errorf("roughSize(%d, %v) = %s, want %s", c.n, c.up, got, c.want)
		}
		n, err := units.ParseSize(got)
		if err != nil || (c.up && n < c.n) || (!c.up && n > c.n) {
			t.Errorf("roughSize(%d, %v) = %s reads back as %d: not a bound", c.n, c.up, got, n)
		}
	}
}

// TestStarterOAuth: init given --oauth-* flags writes the auth block it
// got in with, which parses to the same client, the literal secret (and a
// secret-named token parameter) becoming a ${VAR} to set; an env
// reference is kept as written.
func TestStarterOAuth(t *testing.T) {
	target, _ := targets.Parse("http://127.0.0.1:8080/mcp")
	for _, c := range []struct {
		secret, want string
	}{
		{"s3cret-literal", "${READBENCH_OAUTH_CLIENT_SECRET}"},
		{"${MY_SECRET}", "${MY_SECRET}"},
	} {
		o := &workload.OAuth{ClientID: "loadtest", ClientSecret: c.secret, Scope: "mcp:read mcp:write",
			TokenParams: map[string][]string{"audience": {"https://api"}, "api_key": {"k3y"}, "resource": {"urn:a", "urn:b"}}}
		text, err := Starter(StarterInput{TargetText: target.Address, Target: target, OAuth: o,
			Resources: []workload.Resource{{URI: "docs://a", MIME: "text/plain", Size: 10}}})
		if err != nil {
			t.Fatal(err)
		}
		w, err := Parse("starter.yaml", text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		got := w.Auth.OAuth
		if got.Grant != "client_credentials" || got.ClientID != "loadtest" || got.Scope != o.Scope || got.ClientSecret != c.want ||
			got.TokenParams["audience"][0] != "https://api" || got.TokenParams["api_key"][0] != "${READBENCH_OAUTH_API_KEY}" || len(got.TokenParams["resource"]) != 2 {
			t.Errorf("auth.oauth read back as %+v\n%s", got, text)
		}
		if strings.Contains(string(text), "s3cret-literal") || strings.Contains(string(text), "k3y") {
			t.Errorf("a secret was written:\n%s", text)
		}
	}
}

// TestStarterMasksTheTarget: a secret in the target (a URL's password, in
// a stdio command's argument too, as server-postgres takes its database)
// is written masked, with a warning that says how to run the file; the
// file is otherwise whole (issue 47, item 4: init wrote the password in
// clear).
func TestStarterMasksTheTarget(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"stdio:npx @modelcontextprotocol/server-postgres postgresql://user:pg-s3cret@db.example.com/app",
			`target: "stdio:npx @modelcontextprotocol/server-postgres postgresql://user:xxxxx@db.example.com/app"`},
		{"https://bench:pg-s3cret@docs.example.com/mcp", `target: "https://bench:xxxxx@docs.example.com/mcp"`},
		{"stdio:srv --token pg-s3cret", `target: "stdio:srv --token xxxxx"`},
	} {
		target, err := targets.Parse(c.text)
		if err != nil {
			t.Fatal(err)
		}
		text, err := Starter(StarterInput{TargetText: c.text, Target: target, Server: "s", ProtocolVersion: "2025-11-25",
			Resources: []workload.Resource{{URI: "file:///a.md", MIME: "text/markdown", Size: 10}}})
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		out := string(text)
		if strings.Contains(out, "pg-s3cret") || !strings.Contains(out, c.want) ||
			!strings.Contains(out, "# WARNING: the target's secrets are written masked") || !strings.Contains(out, "--target") {
			t.Errorf("%s: the starter shows the secret, or does not say it masked it:\n%s", c.text, out)
		}
		w, err := Parse("w.yaml", text)
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		if err := w.Validate(); err == nil || !strings.Contains(err.Error(), "masked") {
			t.Errorf("%s: the starter runs with the mask as its secret: %v", c.text, err)
		}
		w.Target = target // as --target gives it
		if err := w.Validate(); err != nil {
			t.Errorf("%s: the starter with its target given again: %v", c.text, err)
		}
	}
	if w := MaskedTargetWarning("stdio:npx server-postgres postgresql://user@db/app"); w != "" {
		t.Errorf("a target without a secret is warned of: %s", w)
	}
}
