package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMetricsListenersLive: a run with listeners against the embedded
// server, scraped by a real Prometheus, has its listeners' series while
// it goes on, not only at its end: in the middle of its 5 s schedule the
// listeners are listening and notifications have been received, with no
// missed kind yet (the identity is whole only at the end); at its end
// the missed kind is there too, as the result says.
func TestMetricsListenersLive(t *testing.T) {
	dir := t.TempDir()
	w := `name: listen-metrics
load: {rate: 10/s, warmup: 0s, duration: 5s}
turn: {attachments: 1, read_timeout: 10s, deadline: 20s}
mix:
  - {class: md, mime: text/markdown, size: 1KiB}
listen: {listeners: 2, streams: 1, uris: ["sim:///doc-a.md?mime=text/markdown&size=1KiB"], reread: {on: true}}
changes: {rate: 5/s, via: {tool: touch, args: {uri: "{uri}"}}}
`
	if err := os.WriteFile(filepath.Join(dir, "listen.yaml"), []byte(w), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	prom := startPrometheus(t, addr)
	started := time.Now()
	_, stderr, code := readbench(t, dir, "run", "listen.yaml", "--quiet", "--out", "r.json", "--metrics", "listen="+addr, "--metrics-linger", "5s")
	ended := time.Now()
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if ended.Sub(started) < 5*time.Second {
		t.Fatalf("the run took %v, less than its schedule", ended.Sub(started))
	}
	// Mid-run: 4 s after the start the 5 s schedule is still going on
	// (it starts once the sessions connected), so what was scraped by
	// then was published live.
	mid := started.Add(4 * time.Second)
	sel := `{state="listening"}`
	if got := promQuery(t, prom, `readbench_listeners`+sel, mid); len(got) != 1 || got[0].float(t) != 2 {
		t.Errorf("readbench_listeners%s mid-run: %v, want 2", sel, got)
	}
	if got := promQuery(t, prom, `readbench_notifications_total{kind="received"}`, mid); len(got) != 1 || got[0].float(t) <= 0 {
		t.Errorf("notifications received mid-run: %v, want some", got)
	}
	if got := promQuery(t, prom, `readbench_notifications_total{kind="missed"}`, mid); len(got) != 0 {
		t.Errorf("the missed kind mid-run: %v, want none before the end", got)
	}
	if got := promQuery(t, prom, `readbench_notifications_untold`, mid); len(got) != 1 {
		t.Errorf("readbench_notifications_untold mid-run: %v, want one series", got)
	}
	res := rawResult(t, filepath.Join(dir, "r.json"))
	missed := res["subscriptions"].(map[string]any)["notifications"].(map[string]any)["missed"].(float64)
	if got := promQuery(t, prom, `readbench_notifications_total{kind="missed"}`, ended); len(got) != 1 || got[0].float(t) != missed {
		t.Errorf("the missed kind at the end: %v, want the result's %v", got, missed)
	}
}
