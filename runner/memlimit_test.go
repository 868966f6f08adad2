package runner

import (
	"runtime/debug"
	"testing"

	"github.com/readbench/readbench/workload/yamlfile"
)

// mix is a workload's mix of one class: every workload needs one.
const mix = "mix:\n  - {class: doc, mime: text/markdown, size: 1KiB}\n"

func TestMemoryLimit(t *testing.T) {
	const mib, kib = 1 << 20, 1 << 10
	tests := []struct {
		name string
		yaml string
		want int64
	}{
		{"10,000 reads in flight over 2,000 http sessions", "target: http://127.0.0.1:1/mcp\nsessions: 2000\nload: {model: closed, concurrency: 2500, duration: 10s}\nturn: {attachments: 4}\n",
			16*mib + 2000*8*kib + 10000*16*kib},
		{"open loop: max_in_flight turns of the most attachments", "target: http://127.0.0.1:1/mcp\nsessions: 100\nload: {rate: 10/s, duration: 10s, max_in_flight: 2000}\nturn: {attachments: {1: 5, 3: 1}}\n",
			16*mib + 100*8*kib + 6000*16*kib},
		{"10,000 listen streams: 100 listeners of 100 streams", "target: http://127.0.0.1:1/mcp\nload: {rate: 1/s, duration: 10s, max_in_flight: 1000}\nlisten: {listeners: 100, streams: 100, uris: [\"sim:///a.md\"]}\n",
			16*mib + 8*kib + 1000*16*kib + 100*8*kib + 10000*16*kib},
		{"10,000 legacy listeners: a session and its standalone stream each, whatever listen.streams", "target: http://127.0.0.1:1/mcp\nprotocol: 2025-11-25\nload: {rate: 1/s, duration: 10s, max_in_flight: 1000}\nlisten: {listeners: 10000, streams: 4, uris: [\"sim:///a.md\"]}\n",
			16*mib + 8*kib + 1000*16*kib + 10000*20*kib},
		{"auto: budgeted as 2026-07-28 listen streams", "target: http://127.0.0.1:1/mcp\nprotocol: auto\nload: {rate: 1/s, duration: 10s, max_in_flight: 1000}\nlisten: {listeners: 1000, streams: 4, uris: [\"sim:///a.md\"]}\n",
			16*mib + 8*kib + 1000*16*kib + 1000*(8*kib+4*16*kib)},
		{"few reads in flight: the floor", "target: http://127.0.0.1:1/mcp\nload: {model: closed, concurrency: 16, duration: 10s}\n", 64 * mib},
		{"stdio: not budgeted", "target: 'stdio:cat'\nsessions: 20\nload: {model: closed, concurrency: 20, duration: 10s}\n", 0},
		{"embedded: not budgeted", "load: {model: closed, concurrency: 20, duration: 10s}\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := yamlfile.Parse("w.yaml", []byte(tt.yaml+mix))
			if err != nil {
				t.Fatal(err)
			}
			if got := memoryLimit(w); got != tt.want {
				t.Errorf("memoryLimit = %d (%.1f MiB), want %d (%.1f MiB)", got, float64(got)/mib, tt.want, float64(tt.want)/mib)
			}
		})
	}
}

// TestSetMemoryLimit: the run's limit is in force during the run and the
// previous one after it; GOMEMLIMIT, when set, is left alone.
func TestSetMemoryLimit(t *testing.T) {
	w, err := yamlfile.Parse("w.yaml", []byte("target: http://127.0.0.1:1/mcp\nload: {model: closed, concurrency: 16, duration: 1s}\n"+mix))
	if err != nil {
		t.Fatal(err)
	}
	before := debug.SetMemoryLimit(-1)
	env := map[string]string{}
	limit, restore := setMemoryLimit(w, func(k string) string { return env[k] })
	if now := debug.SetMemoryLimit(-1); limit != memoryLimit(w) || now != limit {
		t.Errorf("during the run: set %d, in force %d, want %d", limit, now, memoryLimit(w))
	}
	restore()
	if now := debug.SetMemoryLimit(-1); now != before {
		t.Errorf("after the run: %d in force, want the previous %d", now, before)
	}
	env["GOMEMLIMIT"] = "1GiB"
	limit, restore = setMemoryLimit(w, func(k string) string { return env[k] })
	defer restore()
	if now := debug.SetMemoryLimit(-1); limit != 0 || now != before {
		t.Errorf("with GOMEMLIMIT: set %d, in force %d, want none set and %d", limit, now, before)
	}
}
