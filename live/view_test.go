package live

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// lockedBuffer is a bytes.Buffer the program's goroutines may write
// while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestStopRestoresTheScreenThenWritesNotes: the view draws in the
// alternate screen, Stop leaves it, and the notes the screen showed are
// written after it, on the screen the user keeps; Stop twice is fine.
func TestStopRestoresTheScreenThenWritesNotes(t *testing.T) {
	var out lockedBuffer
	v := Start(&out, "readbench run · test", Outline{Length: 2 * time.Second, Sessions: 1})
	v.Step("connect", "connecting to S: starting the server", "1 session")
	v.Ready()
	v.Progress(stats.Progress{Elapsed: time.Second, Total: 2 * time.Second, Asked: 5, Turns: 5, Reads: 20})
	v.Note("readbench: read sim:///a: the server closed the stream")
	if err := v.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := v.Stop(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	const enter, leave = "\x1b[?1049h", "\x1b[?1049l"
	in, off := strings.Index(got, enter), strings.LastIndex(got, leave)
	if in < 0 || off < in {
		t.Fatalf("want the alternate screen entered and left, got %q", got)
	}
	if !strings.Contains(got[in:off], "readbench run · test") {
		t.Errorf("the title was not drawn in the alternate screen: %q", got[in:off])
	}
	if after := got[off+len(leave):]; !strings.Contains(after, "readbench: read sim:///a: the server closed the stream\n") {
		t.Errorf("the note is not written after the screen is left: %q", after)
	}
}
