package runner

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/readbench/readbench/internal/numfmt"
)

// pattern is n bytes a test can tell apart by position: a server's
// stderr, numbered.
func pattern(from, n int) []byte {
	var b bytes.Buffer
	for i := from; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.Bytes()[:n]
}

// TestServerLogBounded: a server that floods stderr (3.37 GB in 8 s was
// seen, all kept) leaves a log of its first logHead and last logTail
// bytes, one line between them saying how many were dropped; one that
// writes less keeps every byte; an empty one leaves no file.
func TestServerLogBounded(t *testing.T) {
	for _, c := range []struct {
		name    string
		size    int
		dropped int64
	}{
		{"empty", 0, 0},
		{"small", 1000, 0},
		{"head and tail exactly", logHead + logTail, 0},
		{"flood", logHead + logTail + 3<<20 + 17, 3<<20 + 17},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			l, err := newServerLog(Place{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			all := pattern(0, c.size)
			for rest := all; len(rest) > 0; { // in the pieces a pipe gives
				k := min(len(rest), 32<<10+7)
				if n, err := l.Write(rest[:k]); n != k || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
				rest = rest[k:]
			}
			path, dropped, err := l.keep(filepath.Join(dir, "r.json"))
			if err != nil || dropped != c.dropped {
				t.Fatalf("keep: dropped %d, %v; want %d", dropped, err, c.dropped)
			}
			if c.size == 0 {
				if path != "" {
					t.Errorf("an empty log was kept at %s", path)
				}
				return
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := all
			if c.dropped > 0 {
				marker := fmt.Sprintf("\n[readbench: 3,145,745 bytes of the servers' stderr dropped here: kept the first %s and the last %s]\n",
					numfmt.Bytes(logHead), numfmt.Bytes(logTail))
				want = append(append(append([]byte{}, all[:logHead]...), marker...), all[len(all)-logTail:]...)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Errorf("the log has %d bytes, want %d (head, marker, tail); they differ from byte %d: %q, want %q",
					len(got), len(want), i, got[i:min(i+80, len(got))], want[i:min(i+80, len(want))])
			}
		})
	}
}

// TestServerLogConcurrent: servers' copiers write at once; every byte is
// in the head, the tail or the dropped count.
func TestServerLogConcurrent(t *testing.T) {
	l, err := newServerLog(Place{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.discard()
	const writers, each = 4, 3 << 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			b := pattern(w, 4096)
			for range each / len(b) {
				l.Write(b)
			}
		})
	}
	wg.Wait()
	if total := l.written + int64(len(l.tail)) + l.dropped; total != writers*each || l.written != logHead || len(l.tail) != logTail {
		t.Errorf("head %d, tail %d, dropped %d: %d bytes accounted of %d", l.written, len(l.tail), l.dropped, total, writers*each)
	}
}
