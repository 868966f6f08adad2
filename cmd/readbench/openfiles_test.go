package main

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// TestOpenFilesWarning: a run whose listen streams need more file
// descriptors than the open-files limit allows is told so, with the
// limit, the need and how to raise it; one within the limit, or with no
// listeners, is not.
func TestOpenFilesWarning(t *testing.T) {
	http := targets.Target{Kind: targets.HTTP, Address: "http://127.0.0.1:1/mcp"}
	stdio := targets.Target{Kind: targets.Stdio, Argv: []string{"server"}}
	for _, c := range []struct {
		name       string
		target     targets.Target
		listen     *workload.Listen
		soft, hard uint64
		want       string // "" for no warning
	}{
		{"no listeners", http, nil, 64, 64, ""},
		{"10,000 streams within 20,000", http, &workload.Listen{Listeners: 100, Streams: 100}, 20000, 20000, ""},
		{"10,000 streams past 1,024", http, &workload.Listen{Listeners: 100, Streams: 100}, 1024, 4096, "is 1024 (hard limit 4096) and the listen streams of 100 listeners need about 10258"},
		{"legacy sessions count two each", http, &workload.Listen{Listeners: 1000, Streams: 1}, 2000, 2000, "need about 2258"},
		{"stdio: three pipes a listener", stdio, &workload.Listen{Listeners: 500, Streams: 9}, 1024, 1024, "need about 1758"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &workload.Workload{Target: c.target, Sessions: 2, Listen: c.listen}
			got := openFilesWarning(w, c.soft, c.hard)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("warning %q, want one holding %q", got, c.want)
			}
			if got != "" && !strings.Contains(got, "ulimit -Hn") {
				t.Errorf("warning %q does not say how to raise the limit", got)
			}
		})
	}
}

// TestRaiseOpenFiles: after raiseOpenFiles the soft limit is the hard
// one, as a run holding thousands of listen streams needs.
func TestRaiseOpenFiles(t *testing.T) {
	soft, hard, ok := raiseOpenFiles()
	if !ok {
		t.Skip("no open-files limit on this system")
	}
	if soft != hard {
		t.Errorf("soft limit %d after raising, hard %d", soft, hard)
	}
}
