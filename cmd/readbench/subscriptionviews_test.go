package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubscriptionThresholdsEndToEnd: a run with listeners against the
// embedded server is held to thresholds on its notifications (one broken:
// exit 1, after saving), its JUnit has the subscription cases and the
// threshold failure, its markdown the section, and compare of two such
// runs the deltas; a threshold on notifications of a workload without
// listeners is refused before any run, at its place in the file or naming
// the flag (exit 2, nothing saved).
func TestSubscriptionThresholdsEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	listen := `name: subs-e2e
load: {rate: 10/s, warmup: 0s, duration: 2s}
turn: {attachments: 1, read_timeout: 10s, deadline: 20s}
mix:
  - {class: md, mime: text/markdown, size: 1KiB}
listen: {listeners: 2, streams: 1, uris: ["sim:///doc-a.md?mime=text/markdown&size=1KiB"], reread: {on: true}}
changes: {rate: 5/s, via: {tool: touch, args: {uri: "{uri}"}}}
thresholds: {notify.p99: "<10s", notify.missed: "<=0%", ack.p99: "<1us"}
`
	plain := "name: plain-e2e\nload: {rate: 5/s, duration: 1s}\nmix:\n  - {class: md, mime: text/markdown, size: 1KiB}\nthresholds:\n  notify.p99: \"<1s\"\n"
	for name, text := range map[string]string{"listen.yaml": listen, "plain.yaml": plain, "bare.yaml": strings.Split(plain, "thresholds")[0]} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := readbench(t, dir, "run", "listen.yaml", "--quiet", "--out", "a.json", "--threshold", "notify.violations<1")
	if code != 1 || !strings.Contains(stderr, "1 of 4 thresholds broken: ack.p99<1us (measured") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	stdout, _, code := readbench(t, dir, "report", "a.json", "--format", "junit")
	for _, want := range []string{`name="subscriptions: missed notifications"`, `name="subscriptions: protocol violations"`,
		`<testcase name="notify.missed&lt;=0%"`, `<testcase name="ack.p99&lt;1us"`, `failures="1"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("junit (exit %d) lacks %q:\n%s", code, want, stdout)
		}
	}
	validateJUnitFile(t, dir, stdout)
	if stdout, _, _ = readbench(t, dir, "report", "a.json", "--format", "markdown"); !strings.Contains(stdout, "### Subscriptions") {
		t.Errorf("markdown lacks the subscriptions section:\n%s", stdout)
	}
	if _, _, code = readbench(t, dir, "run", "listen.yaml", "--quiet", "--out", "b.json"); code != 1 {
		t.Fatalf("second run: exit %d", code)
	}
	if stdout, _, _ = readbench(t, dir, "compare", "a.json", "b.json"); !strings.Contains(stdout, "notify p99") || !strings.Contains(stdout, "missed (% of expected)") {
		t.Errorf("compare lacks the subscription deltas:\n%s", stdout)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "plain.yaml", "--out", "p.json"}, "plain.yaml:6:3: thresholds.notify.p99: notify.p99 is measured on listeners"},
		{[]string{"run", "bare.yaml", "--out", "p.json", "--threshold", "notify.missed<1%"}, "notify.missed: unknown for this run"},
	} {
		_, stderr, code := readbench(t, dir, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "p.json")); err == nil {
			t.Errorf("%v: a refused threshold still ran", c.args)
		}
	}
}
