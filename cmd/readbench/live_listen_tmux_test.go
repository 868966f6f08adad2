package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// liveListeners is the live view's listeners line once the two listeners
// listen, with their figures so far.
var liveListeners = regexp.MustCompile(`listeners +2/2 listening · 2 open · notifications \S+ · missed \d+ · lost \d+ · ack p99 [0-9.]+(µs|ms|s) · notify p99 `)

// TestLiveViewListenersInTmux: the live view of a run with listeners, in
// a real terminal, draws their line while the run goes on (both
// listening, their subscriptions open, the figures so far), and the view
// of a run without listeners (the default scenario) draws none.
func TestLiveViewListenersInTmux(t *testing.T) {
	s := newTmux(t)
	dir := t.TempDir()
	w := `name: listen-live
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
	runs := map[string]string{
		"listen": binary + " run listen.yaml --live --out listen.json",
		"plain":  binary + " run --duration 5s --live --out plain.json",
	}
	for name, line := range runs {
		s.start(name, dir, line)
	}
	drawn := map[string]bool{}
	deadline := time.Now().Add(time.Minute)
	for ended := map[string]bool{}; len(ended) < len(runs); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the runs did not end within a minute; ended: %v", ended)
		}
		for name := range runs {
			if ended[name] {
				continue
			}
			scr := s.screen(name, false)
			if exitLine.MatchString(scr) {
				ended[name] = true
				continue
			}
			drawn[name] = drawn[name] || liveListeners.MatchString(scr)
			if name == "plain" && strings.Contains(scr, "  listeners ") {
				t.Errorf("a listeners line in a run without listeners:\n%s", scr)
			}
		}
	}
	if !drawn["listen"] {
		t.Errorf("the listeners line was never drawn; last screen:\n%s", s.screen("listen", true))
	}
}
