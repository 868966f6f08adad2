package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWireFaultsKeepStrays (issue 47, item 20): a stdio server that
// answers every read twice (the simulated server's wire=duplicate) or
// sends an answer to an id never sent before each answer
// (wire=unsolicited) has its reads ok, and the result keeps the final
// counts (strays), which the run only logged before; its verdict stays
// healthy but is marked "!" with the counts in its reasons, and the
// report says them on a "strays" line, brief and --full.
func TestWireFaultsKeepStrays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		wire string
		key  string // the strays key the fault counts in
		says string // what the reports say
	}{
		{"duplicate", "duplicate_answers", "requests answered twice"},
		{"unsolicited", "unknown_id_answers", "answers to ids readbench never sent"},
	} {
		t.Run(c.wire, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			wl := writeWorkload(t, dir, fmt.Sprintf(`
name: %s
load: {rate: 20/s, turns: 10}
turn: {attachments: 2, read_timeout: 5s}
mix:
  - {class: c, uri: "sim:///f?mime=text/plain&size=1000&wire=%s"}
`, c.wire, c.wire))
			if stdout, stderr, code := readbench(t, dir, "run", wl, "--target", "embedded", "--out", "r.json"); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			b, err := os.ReadFile(filepath.Join(dir, "r.json"))
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Totals struct {
					Outcomes map[string]int64 `json:"outcomes"`
				} `json:"totals"`
				Strays  map[string]int64 `json:"strays"`
				Verdict struct {
					Health  string   `json:"health"`
					Line    string   `json:"line"`
					Reasons []string `json:"reasons"`
				} `json:"verdict"`
			}
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			ok := r.Totals.Outcomes["ok"]
			if ok != 20 {
				t.Fatalf("outcomes %v: want every read ok", nonZero(r.Totals.Outcomes))
			}
			// every read sent draws one (warmup 0: the run's reads are the measured ones)
			if r.Strays == nil || r.Strays[c.key] != ok {
				t.Errorf("strays %v: want %s = %d, one per read", r.Strays, c.key, ok)
			}
			if r.Verdict.Health != "healthy" || !strings.HasPrefix(r.Verdict.Line, "! ") ||
				!strings.Contains(strings.Join(r.Verdict.Reasons, "\n"), fmt.Sprintf("%d %s", ok, c.says)) {
				t.Errorf("verdict %q %q: want healthy, marked !, the strays in its reasons", r.Verdict.Line, r.Verdict.Reasons)
			}
			for _, full := range []bool{false, true} {
				args := []string{"report", "r.json"}
				if full {
					args = append(args, "--full")
				}
				out, stderr, code := readbench(t, dir, args...)
				if code != 0 || !strings.Contains(out, "strays") || !strings.Contains(out, fmt.Sprintf("%d %s", ok, c.says)) {
					t.Errorf("report (full %v) exit %d does not say the strays:\n%s\n%s", full, code, out, stderr)
				}
			}
		})
	}
}
