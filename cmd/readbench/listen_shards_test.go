package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// shardListenWorkload reads one small document while 4 listeners follow
// another, changed 4 times a second by the simulated server's touch tool.
const shardListenWorkload = `name: listeners-in-shards
target: %q
sessions: 2
load: {rate: 4/s, duration: 3s, warmup: 1s}
turn: {attachments: 1, read_timeout: 5s, deadline: 5s}
mix:
  - {class: md, mime: text/markdown, size: 2KiB}
listen: {listeners: 4, uris: ["sim:///followed.md?mime=text/markdown&size=1KiB"], reread: {on: false}}
changes: {rate: 4/s, via: {tool: touch, args: {uri: "{uri}"}}}
`

// TestListenInShards: a run with listeners split in two shards (--segment
// 1/2 and 2/2, one start): each opens its half of the listeners, the first
// makes the changes and the second records them on the clock they share,
// so that each shard's listeners are matched to every change; merged,
// the listeners add up, the changes are the one schedule's (not twice
// it), each change is expected once per listener, and none is missed.
func TestListenInShards(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	url := startServe(t)
	if err := os.WriteFile(filepath.Join(dir, "w.yaml"), []byte(fmt.Sprintf(shardListenWorkload, url)), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
	first := make(chan string, 1)
	go func() {
		_, stderr, code := readbench(t, dir, "run", "w.yaml", "--quiet", "--segment", "1/2", "--start-at", at, "--out", "s1.json")
		if code != 0 {
			first <- fmt.Sprintf("shard 1/2: exit %d: %s", code, stderr)
			return
		}
		first <- ""
	}()
	if _, stderr, code := readbench(t, dir, "run", "w.yaml", "--quiet", "--segment", "2/2", "--start-at", at, "--out", "s2.json"); code != 0 {
		t.Fatalf("shard 2/2: exit %d: %s", code, stderr)
	}
	if failed := <-first; failed != "" {
		t.Fatal(failed)
	}
	shard := func(name string) map[string]any {
		return rawResult(t, filepath.Join(dir, name))["subscriptions"].(map[string]any)
	}
	changes := func(s map[string]any) float64 { return s["changes"].(map[string]any)["made"].(float64) }
	s1, s2 := shard("s1.json"), shard("s2.json")
	for name, s := range map[string]map[string]any{"1/2": s1, "2/2": s2} {
		l := s["listeners"].(map[string]any)
		n := s["notifications"].(map[string]any)
		if l["listening"].(float64) != 2 || n["missed"].(float64) != 0 || n["expected"].(float64) != 2*changes(s) || n["identity_ok"] != true {
			t.Errorf("shard %s: listeners %v, notifications %v, %v changes", name, l, n, changes(s))
		}
	}
	if changes(s1) < 10 || changes(s1) != changes(s2) {
		t.Errorf("the first shard made %v changes, the second recorded %v: want one schedule of about 16", changes(s1), changes(s2))
	}
	if _, stderr, code := readbench(t, dir, "merge", "--quiet", "--out", "merged.json", "s1.json", "s2.json"); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	m := shard("merged.json")
	n := m["notifications"].(map[string]any)
	if m["listeners"].(map[string]any)["asked"].(float64) != 4 || changes(m) != changes(s1) || n["expected"].(float64) != 4*changes(s1) ||
		n["missed"].(float64) != 0 || n["identity_ok"] != true || m["changes"].(map[string]any)["rate"].(float64) != 4 {
		t.Errorf("merged: listeners %v, changes %v, notifications %v", m["listeners"], m["changes"], n)
	}
}

// TestFreshDocsScenario: the built-in fresh-docs scenario shows the
// freshness loop with no other server: its listeners subscribe on the
// embedded server, every change is told to each of them, and they read
// the documents again.
func TestFreshDocsScenario(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, stderr, code := readbench(t, dir, "run", "fresh-docs", "--duration", "2s", "--warmup", "1s", "-q", "--out", "r.json"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	s := rawResult(t, filepath.Join(dir, "r.json"))["subscriptions"].(map[string]any)
	n := s["notifications"].(map[string]any)
	made := s["changes"].(map[string]any)["made"].(float64)
	if s["listeners"].(map[string]any)["listening"].(float64) != 8 || made < 2 || n["expected"].(float64) != 8*made ||
		n["missed"].(float64) != 0 || n["identity_ok"] != true || s["rereads"].(map[string]any)["made"].(float64) == 0 {
		t.Errorf("fresh-docs: listeners %v, %v changes, notifications %v, rereads %v", s["listeners"], made, n, s["rereads"])
	}
}
