package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// likeWorkload sets every load setting a saved result once lost
// (handshake_timeout, connect_rate, min_sessions) to something other
// than its default, and a seed and rate of its own.
const likeWorkload = `
name: like-e2e
sessions: 2
seed: 4242
load:
  rate: 15/s
  duration: 1s
  warmup: 0s
  handshake_timeout: 45s
  connect_rate: 20/s
  min_sessions: 1
  max_in_flight: 50
turn: {attachments: 2, read_timeout: 3s, deadline: 900ms}
mix:
  - {class: md, weight: 3, mime: text/markdown, size: 2KiB, delay: "lognormal(1ms, 3ms)"}
  - {class: gone, weight: 1, uri: "docs://renamed", expect: not_found}
thresholds: {errors: "<50%"}
`

// savedWorkload is the workload block of the result file at path.
func savedWorkload(t *testing.T, path string) map[string]any {
	t.Helper()
	w, ok := rawResult(t, path)["workload"].(map[string]any)
	if !ok {
		t.Fatalf("%s has no workload block", path)
	}
	return w
}

// TestRunLikeRunsTheSameWorkload: a result saves its load settings, and
// `run --like` of it, of a merged result too, runs the same workload
// again (the second result saves the same block); a flag still overrides
// it.
func TestRunLikeRunsTheSameWorkload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wl := writeWorkload(t, dir, likeWorkload)
	run := func(args ...string) {
		t.Helper()
		if _, stderr, code := readbench(t, dir, append([]string{"run", "--quiet"}, args...)...); code != 0 {
			t.Fatalf("run %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
	}
	run(wl, "--out", "first.json")
	first := savedWorkload(t, filepath.Join(dir, "first.json"))
	load := first["load"].(map[string]any)
	for key, want := range map[string]any{"handshake_timeout": "45s", "connect_rate": "20/s", "connect_rate_per_s": 20.0,
		"min_sessions": 1.0, "rate": "15/s", "max_in_flight": 50.0} {
		if load[key] != want {
			t.Errorf("workload.load.%s = %v, want %v", key, load[key], want)
		}
	}
	if first["seed"] != 4242.0 {
		t.Errorf("workload.seed = %v, want 4242", first["seed"])
	}

	at := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
	shard := make(chan string, 1)
	go func() {
		_, stderr, code := readbench(t, dir, "run", "--quiet", "--like", "first.json", "--segment", "1/2", "--start-at", at, "--out", "s1.json")
		if code != 0 {
			stderr = "shard 1/2: " + stderr
		} else {
			stderr = ""
		}
		shard <- stderr
	}()
	run("--like", "first.json", "--segment", "2/2", "--start-at", at, "--out", "s2.json")
	if failed := <-shard; failed != "" {
		t.Fatal(failed)
	}
	if _, stderr, code := readbench(t, dir, "merge", "--quiet", "--out", "merged.json", "s1.json", "s2.json"); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}

	for _, c := range []struct {
		name string
		args []string
		edit func(w map[string]any) // what the flags change; nil: nothing
	}{
		{"the result", []string{"--like", "first.json"}, nil},
		{"a merged result", []string{"--like", "merged.json"}, nil},
		{"a flag overrides", []string{"--like", "first.json", "--rate", "10/s"}, func(w map[string]any) {
			l := w["load"].(map[string]any)
			l["rate"], l["rate_per_s"] = "10/s", 10.0
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := strings.ReplaceAll(c.name, " ", "-") + ".json"
			run(append(c.args, "--out", out)...)
			want := savedWorkload(t, filepath.Join(dir, "first.json"))
			if c.edit != nil {
				c.edit(want)
			}
			if got := savedWorkload(t, filepath.Join(dir, out)); !reflect.DeepEqual(got, want) {
				g, _ := json.MarshalIndent(got, "", "  ")
				w, _ := json.MarshalIndent(want, "", "  ")
				t.Errorf("run --like saved the workload\n%s\nwant\n%s", g, w)
			}
		})
	}
}

// TestRunLikeRefuses: what is not a result is refused with exit 2 and
// says where and why; a result and a workload together too.
func TestRunLikeRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"w.yaml":     likeWorkload,
		"bad.json":   "{\n  \"schema\": \"readbench/result/v1\",\n  \"workload\": {,}\n}\n",
		"check.json": `{"schema": "readbench/check/v1"}`,
		"type.json":  "{\"schema\": \"readbench/result/v1\",\n \"workload\": {\"seed\": \"seven\"}}",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want string // a regular expression
	}{
		{[]string{"--like", "w.yaml"}, `--like: w\.yaml:\d+:\d+: not a readbench result: invalid JSON`},
		{[]string{"--like", "bad.json"}, `--like: bad\.json:3:16: not a readbench result: invalid JSON`},
		{[]string{"--like", "check.json"}, `unsupported result schema "readbench/check/v1"`},
		{[]string{"--like", "type.json"}, `type\.json:2:\d+: bad result: "workload\.seed" cannot be a string`},
		{[]string{"--like", "missing.json"}, `--like: .*missing\.json: no such file`},
		{[]string{"--like", "bad.json", "w.yaml"}, `give a workload or --like RESULT, not both`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, stderr, code := readbench(t, dir, append([]string{"run", "--quiet"}, c.args...)...)
			if code != 2 || !regexp.MustCompile(c.want).MatchString(stderr) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %s", code, stderr, c.want)
			}
		})
	}
}

// TestRunLikeSecrets: a header value and an OAuth client secret never
// reach a result, so `run --like` of it asks for both again, naming the
// flag, and runs once they are given, saving the same workload.
func TestRunLikeSecrets(t *testing.T) {
	t.Parallel()
	const headerValue, clientSecret = "h3ader-value-9c1", "cl1ent-s3cret-77e"
	srv := startOAuthServe(t, "--oauth-client", "loadtest:"+clientSecret)
	dir := t.TempDir()
	wl := writeWorkload(t, dir, `
target: `+srv.url+`
load: {rate: 10/s, duration: 1s}
mix: [{class: md, uri: "sim:///h?mime=text/markdown&size=2000"}]
headers: {X-Api-Key: "`+headerValue+`"}
auth: {oauth: {client_id: loadtest, client_secret: "`+clientSecret+`"}}
`)
	env := append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := testproc.Own(t, exec.Command(binary, append([]string{"run", "--quiet"}, args...)...))
		cmd.Dir, cmd.Env = dir, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return stderr.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stderr.String(), 0
	}
	if stderr, code := run(wl, "--out", "first.json"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--like", "first.json"}, 2, "give the value again with --header 'X-Api-Key: …'"},
		{[]string{"--like", "first.json", "--header", "X-Api-Key: " + headerValue}, 2, "give it again with --oauth-client-secret"},
		{[]string{"--like", "first.json", "--header", "X-Api-Key: " + headerValue, "--oauth-client-secret", clientSecret, "--out", "again.json"}, 0, ""},
	} {
		stderr, code := run(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("run %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
	}
	for _, file := range []string{"first.json", "again.json"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{headerValue, clientSecret} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the secret %q", file, secret)
			}
		}
	}
	if got, want := savedWorkload(t, filepath.Join(dir, "again.json")), savedWorkload(t, filepath.Join(dir, "first.json")); !reflect.DeepEqual(got, want) {
		t.Errorf("run --like saved the workload %v, want %v", got, want)
	}
}
