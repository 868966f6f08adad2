package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardRefusalsUpfront: what a sharded run cannot do is said before
// it connects, by every shard: a barrier folder that did not exist is
// made and said (even with -q), a barrier "folder" that is a file is
// refused (exit 2), and a split that leaves some shard without a session
// is refused by the shards that would have had one too, which would
// otherwise wait for the others at the barrier.
func TestShardRefusalsUpfront(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := writeWorkload(t, dir, barrierWorkload) // 3 sessions
	if err := os.WriteFile(filepath.Join(dir, "a-file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a missing folder is made and said", []string{"--segment", "1/2", "--barrier", "shared/barrier", "--barrier-timeout", "1s"}, 1,
			"--barrier shared/barrier did not exist: created it; every shard of the run must see this same folder"},
		{"a file is refused", []string{"--segment", "1/2", "--barrier", "a-file"}, 2, "a-file is a file, not a folder"},
		{"shard 2/4 of 3 sessions has one, but 1/4 has none", []string{"--segment", "2/4", "--barrier", "b2", "--barrier-timeout", "1s"}, 2,
			"sessions: 3 cannot be split into 4 shares of at least one (--segment 2/4): every shard of the run needs one"},
	} {
		_, stderr, code := readbench(t, dir, append([]string{"run", w, "-q", "--out", "r.json"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.name, code, stderr, c.code, c.want)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "shared", "barrier")); err != nil || !fi.IsDir() {
		t.Errorf("the barrier folder was not made: %v", err)
	}
}
