package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/testproc"
)

// TestHelpFitsTheWidth: the help of readbench and of every command fits
// COLUMNS (80 and 120 here; 80 with none, off a terminal), its flags in
// their groups, every flag but --help in one.
func TestHelpFitsTheWidth(t *testing.T) {
	t.Parallel()
	groups := map[string][]string{
		"":          {"COMMANDS:", "GLOBAL OPTIONS:"},
		"run":       {"LOAD OPTIONS:", "TARGET OPTIONS:", "THRESHOLDS OPTIONS:", "OUTPUT OPTIONS:", "METRICS OPTIONS:", "AUTH OPTIONS:", "SHARDS OPTIONS:", "PROFILE OPTIONS:"},
		"ab":        {"LOAD OPTIONS:", "TARGET OPTIONS:", "THRESHOLDS OPTIONS:", "OUTPUT OPTIONS:", "METRICS OPTIONS:", "AUTH OPTIONS:"},
		"capacity":  {"LOAD OPTIONS:", "TARGET OPTIONS:", "THRESHOLDS OPTIONS:", "OUTPUT OPTIONS:", "METRICS OPTIONS:", "AUTH OPTIONS:"},
		"check":     {"TARGET OPTIONS:", "CHECK OPTIONS:", "OUTPUT OPTIONS:", "AUTH OPTIONS:"},
		"compare":   {"RUNS OPTIONS:", "THRESHOLDS OPTIONS:", "OUTPUT OPTIONS:"},
		"serve":     {"LISTEN OPTIONS:", "SIMULATION OPTIONS:", "METRICS OPTIONS:", "AUTH OPTIONS:", "PROFILE OPTIONS:"},
		"init":      {"TARGET OPTIONS:", "OUTPUT OPTIONS:", "AUTH OPTIONS:"},
		"login":     {"TARGET OPTIONS:", "AUTH OPTIONS:"},
		"merge":     {"OUTPUT OPTIONS:", "SHARDS OPTIONS:"},
		"report":    {"OUTPUT OPTIONS:"},
		"scenarios": nil, "schema": nil, "inflation": nil,
	}
	for cmd, want := range groups {
		for _, columns := range []string{"80", "120", ""} {
			args := []string{"--help"}
			if cmd != "" {
				args = []string{cmd, "--help"}
			}
			c := testproc.Own(t, exec.Command(binary, args...))
			c.Env = append(os.Environ(), "COLUMNS="+columns) // "": none, and no terminal: 80
			out, err := c.Output()
			if err != nil {
				t.Fatalf("%s --help: %v", cmd, err)
			}
			width := map[string]int{"80": 80, "120": 120, "": 80}[columns]
			help := string(out)
			for i, l := range strings.Split(help, "\n") {
				if n := utf8.RuneCountInString(l); n > width {
					t.Errorf("%s --help at COLUMNS=%q: line %d is %d columns: %q", cmd, columns, i+1, n, l)
				}
			}
			for _, g := range want {
				if !strings.Contains(help, "\n"+g+"\n") {
					t.Errorf("%s --help at COLUMNS=%q has no %q group:\n%s", cmd, columns, g, help)
				}
			}
			// Every flag but --help is in a group: the plain OPTIONS section holds --help alone.
			if _, plain, ok := strings.Cut(help, "\nOPTIONS:\n"); ok && cmd != "" && strings.Join(strings.Fields(plain), " ") != "--help, -h show help" {
				t.Errorf("%s --help: flags without a group:\n%s", cmd, plain)
			}
		}
	}
}

// TestHelpNamesEveryValue: no flag of any command shows urfave/cli's
// placeholder "value", which says nothing of what to write; and -h is the
// short help, whose rarely needed groups list their flags' names (every
// flag still named, and --help pointed at), while --help shows each
// flag's text.
func TestHelpNamesEveryValue(t *testing.T) {
	t.Parallel()
	help := func(args ...string) string {
		c := testproc.Own(t, exec.Command(binary, args...))
		c.Env = append(os.Environ(), "COLUMNS=80")
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return string(out)
	}
	for _, cmd := range []string{"run", "serve", "check", "report", "compare", "ab", "capacity", "replay", "record", "init", "merge", "login", "inflation"} {
		full := help(cmd, "--help")
		for _, l := range strings.Split(full, "\n") {
			if f := strings.Fields(l); len(f) > 1 && strings.HasPrefix(f[0], "--") && f[1] == "value" {
				t.Errorf("%s --help: %q shows the placeholder value", cmd, l)
			}
		}
		short := help(cmd, "-h")
		for _, l := range strings.Split(full, "\n") {
			if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "--") && !strings.Contains(short, strings.TrimSuffix(f[0], ",")) {
				t.Errorf("%s -h does not name %s", cmd, f[0])
			}
		}
	}
	full, short := help("run", "--help"), help("run", "-h")
	if !strings.Contains(short, "\nAUTH OPTIONS:\n   --oauth-client-id, --oauth-client-secret,") || !strings.Contains(short, "--help (not -h) shows every flag") {
		t.Errorf("run -h does not fold the auth group:\n%s", short)
	}
	if strings.Contains(full, "--help (not -h)") || !strings.Contains(full, "--oauth-client-id ID") {
		t.Errorf("run --help folds a group:\n%s", full)
	}
	if s, f := strings.Count(short, "\n"), strings.Count(full, "\n"); s > f*3/4 {
		t.Errorf("run -h is %d lines, --help %d: -h should be the short one", s, f)
	}
}
