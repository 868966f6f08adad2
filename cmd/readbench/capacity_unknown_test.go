package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// silentWorkload reads a document the simulated server holds 2 s, with a
// read timeout of 200 ms: every read times out, at any rate.
const silentWorkload = `name: silent
sessions: 2
load: {rate: 5/s}
turn: {attachments: 1, read_timeout: 200ms, deadline: 1s}
mix:
  - {class: doc, weight: 1, mime: text/markdown, size: 1KiB, delay: 2s}
`

// TestCapacityUnknownExitsOne: against a server whose every read times
// out, the search's answer is the server's — it sustains no rate in the
// range searched, on a busy machine too — and the maximum sustainable
// rate is not known: max_sustainable_rate is null, and capacity exits 1
// after writing its document and saving the steps;
// --fail-on-unknown=false exits 0 and says so on stderr.
func TestCapacityUnknownExitsOne(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, silentWorkload)
	url := startServe(t)
	for _, c := range []struct {
		out    string
		extra  []string
		code   int
		stderr string
	}{
		{"gate", nil, 1, "readbench: capacity: the maximum sustainable rate is not known (limited_by first_step)"},
		{"nogate", []string{"--fail-on-unknown=false"}, 0, "exit 0 only because of --fail-on-unknown=false"},
	} {
		args := append([]string{"capacity", w, "--target", url, "--slo", "read.p99<100ms,errors<1%", "--from", "10/s", "--to", "20/s",
			"--step-duration", "1s", "--step-warmup", "0s", "--refine", "0", "--hold", "0", "--retries", "1", "--format", "json",
			"--out", c.out, "-q"}, c.extra...)
		stdout, stderr, code := readbench(t, dir, args...)
		if code != c.code || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.extra, code, stderr, c.code, c.stderr)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v: %v\n%s", c.extra, err, stdout)
		}
		var conclusion string
		_ = json.Unmarshal(doc["conclusion"], &conclusion)
		if string(doc["max_sustainable_rate"]) != "null" || string(doc["limited_by"]) != `"first_step"` ||
			!strings.Contains(conclusion, "sustains no rate in the range searched") {
			t.Errorf("%v: max_sustainable_rate %s, limited_by %s: %s", c.extra, doc["max_sustainable_rate"], doc["limited_by"], conclusion)
		}
		if _, err := os.Stat(filepath.Join(dir, c.out, "step-01.json")); err != nil {
			t.Errorf("%v: the step was not saved: %v", c.extra, err)
		}
	}
}
