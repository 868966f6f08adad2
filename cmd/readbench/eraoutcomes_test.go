package main

import (
	"path/filepath"
	"testing"
)

// TestRunEraOutcomes: a run produces invalid_params and input_required
// end to end, each in its own class beside reads that succeed, most of
// the mix (so the run is useful, not failing, and exits 0: a run held to
// no threshold most of whose reads fail exits 1). -32602 not worded as missing is invalid_params
// from a handshake-era server and not_found from a 2026-07-28 one, which
// retired -32002; input_required is a 2026-07-28 result.
func TestRunEraOutcomes(t *testing.T) {
	const load = "load: {rate: 30/s, duration: 1s}\nturn: {attachments: 3, read_timeout: 5s}\nmix:\n" +
		"  - {class: ok, weight: 8, uri: \"sim:///ok.txt?mime=text/plain&size=10\"}\n"
	cases := []struct {
		protocol, mix string
		want          map[string]string // class: the one outcome of its every read
	}{
		{"2025-11-25", `  - {class: bad, uri: "sim:///e?error=-32602"}` + "\n",
			map[string]string{"ok": "ok", "bad": "invalid_params"}},
		{"2026-07-28", `  - {class: bad, uri: "sim:///e?error=-32602"}` + "\n" +
			`  - {class: ask, uri: "sim:///ask.txt?mime=text/plain&size=10&input_required=true"}` + "\n",
			map[string]string{"ok": "ok", "bad": "not_found", "ask": "input_required"}},
	}
	for _, c := range cases {
		t.Run(c.protocol, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			wl := writeWorkload(t, dir, load+c.mix)
			stdout, stderr, code := readbench(t, dir, "run", wl, "--protocol", c.protocol, "--out", "r.json", "-q")
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			r := loadResult(t, filepath.Join(dir, "r.json"))
			if r.Target.ProtocolVersion != c.protocol {
				t.Errorf("protocol %q, want %q", r.Target.ProtocolVersion, c.protocol)
			}
			seen := 0
			for _, cl := range r.Classes {
				want, ok := c.want[cl.Class]
				if !ok {
					continue
				}
				seen++
				if n := cl.Outcomes[want]; n == 0 || n != sumOutcomes(cl.Outcomes) {
					t.Errorf("class %s: %v, want every read %s", cl.Class, cl.Outcomes, want)
				}
			}
			if seen != len(c.want) {
				t.Errorf("%d of the %d classes in the result", seen, len(c.want))
			}
		})
	}
}
