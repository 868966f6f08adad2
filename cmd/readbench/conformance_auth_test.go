package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformanceAuth runs the official MCP conformance suite's client
// auth/* scenarios against readbench login --headless, through
// scripts/conformance-client.mjs (the one place that knows how the suite
// passes a scenario's credentials): metadata discovery and its fallbacks,
// client ID metadata documents, dynamic and pre-registration, scope
// selection, step-up and its retry limit, token endpoint authentication,
// resource and issuer checks, offline access, a moved authorization
// server, the 2025-03-26 back-compatibility, and client credentials with a
// secret or a JWT. The suite's extension scenarios for enterprise-managed
// authorization, DPoP and workload identity federation are not run:
// readbench offers none of those grants.
func TestConformanceAuth(t *testing.T) {
	t.Parallel()
	node, suite := conformanceSuite(t)
	preload, err := filepath.Abs("../../peers/loopback.cjs")
	if err != nil {
		t.Fatal(err)
	}
	adapter, err := filepath.Abs("../../scripts/conformance-client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	slots := make(chan struct{}, 4)
	for _, c := range conformanceAuthCases() {
		t.Run(c.spec+"/"+c.scenario, func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			cache := t.TempDir() // never the user's cache folder
			for _, p := range []string{node, adapter, binary, cache} {
				if strings.ContainsAny(p, " \t\n'\"\\$`;&|<>(){}[]*?#~!%=") {
					t.Fatalf("cannot pass %q to the suite's client command (it goes through sh)", p)
				}
			}
			cmd := strings.Join([]string{node, adapter, binary, cache}, " ")
			args := []string{"client", "--command", cmd, "--scenario", c.scenario, "--timeout", "30000"}
			if c.spec != confExtension { // an extension is on no spec version's timeline
				args = append(args, "--spec-version", c.spec)
			}
			checks := runConformance(t, node, preload, suite, args...)
			judgeConformance(t, c, checks)
			// A login that got in left its tokens, mode 0600, in the cache.
			files, _ := filepath.Glob(filepath.Join(cache, "readbench", "tokens", "*.json"))
			if c.expectNoLogin {
				if len(files) != 0 {
					t.Errorf("a login that must be refused cached tokens: %v", files)
				}
				return
			}
			if len(files) != 1 {
				t.Fatalf("the login cached %d token files, want 1", len(files))
			}
			if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("the token file's mode is %v (%v), want 0600", fi.Mode().Perm(), err)
			}
		})
	}
}

const (
	confBackcompat = "2025-03-26"
	confExtension  = "extension"
)

// conformanceAuthCases are the suite's client auth scenarios that apply
// to readbench, each at a spec version it is defined for.
func conformanceAuthCases() []conformanceCase {
	var cs []conformanceCase
	add := func(spec string, scenarios ...string) {
		for _, s := range scenarios {
			cs = append(cs, conformanceCase{scenario: "auth/" + s, spec: spec})
		}
	}
	add(confLegacy, "metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd",
		"scope-from-www-authenticate", "scope-from-scopes-supported", "scope-omitted-when-undefined",
		"token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none", "pre-registration")
	add(confExtension, "client-credentials-basic", "client-credentials-jwt")
	add(confBackcompat, "2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback")
	add(confModern, "metadata-default", "offline-access-scope", "offline-access-not-supported",
		"authorization-server-migration", "iss-supported", "iss-not-advertised")
	// Scenarios where the right answer is to refuse: readbench must exit
	// 1 and cache nothing.
	refuse := func(spec string, scenarios ...string) {
		for _, s := range scenarios {
			cs = append(cs, conformanceCase{scenario: "auth/" + s, spec: spec, expectNoLogin: true})
		}
	}
	refuse(confLegacy, "scope-retry-limit") // a server that always wants more scope
	refuse(confModern, "resource-mismatch", "metadata-issuer-mismatch", "iss-supported-missing", "iss-wrong-issuer", "iss-unexpected", "iss-normalized")
	cs = append(cs, conformanceCase{scenario: "auth/scope-step-up", spec: confLegacy, notApplicable: map[string]confExcuse{
		"scope-step-up-escalation": {why: "the scenario asks for more scope only on tools/call, which readbench never sends; " +
			"step-up on a 403 insufficient_scope to a read is auth.Source.Refused's, tested in package auth"},
	}})
	return cs
}
