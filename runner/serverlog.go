package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// The most of the servers' stderr a run keeps: its first logHead bytes,
// where a server says why it started badly, and its last logTail bytes,
// where it says why it died. A server that floods stderr (3.37 GB in 8 s
// was seen) costs the disk no more than their sum, and what was dropped
// between them is counted and said.
const (
	logHead = 4 << 20
	logTail = 4 << 20
)

// serverLog collects the stderr of stdio servers during a run and ends up
// next to the result (<result>.stderr.log), where whoever reads the result
// finds why a server complained or died. An empty log is not kept. It is
// the run's Options.Stderr: the servers' copiers write to it at once, so
// it is safe for concurrent use.
type serverLog struct {
	mu      sync.Mutex
	file    *os.File
	written int64  // bytes in the file: at most logHead before keep
	tail    []byte // after the head: a ring of the latest logTail bytes ...
	next    int    // ... the next one written at tail[next] once it is full
	dropped int64  // bytes neither in the head nor in the tail
	err     error  // the first write error: the log is then best effort
}

func newServerLog(p Place) (*serverLog, error) {
	if p.made {
		if err := os.MkdirAll(p.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("server stderr log: %w", err)
		}
	}
	f, err := os.CreateTemp(p.Dir, ".stderr-*.log")
	if err != nil {
		return nil, fmt.Errorf("server stderr log: %w", err)
	}
	return &serverLog{file: f}, nil
}

// Write keeps b in the head while it has room, then in the tail ring,
// counting what the ring pushes out. It never fails a server's copier:
// a log that cannot be written is a note, not a reason to stop a run.
func (l *serverLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(b)
	if l.file == nil {
		return n, nil
	}
	if room := logHead - l.written; room > 0 {
		head := b[:min(int64(len(b)), room)]
		if _, err := l.file.Write(head); err != nil && l.err == nil {
			l.err = err
		}
		l.written += int64(len(head))
		b = b[len(head):]
	}
	for len(b) > 0 {
		if len(l.tail) < logTail { // filling the ring
			k := min(len(b), logTail-len(l.tail))
			l.tail = append(l.tail, b[:k]...)
			b = b[k:]
			continue
		}
		k := copy(l.tail[l.next:], b)
		l.dropped += int64(k)
		l.next = (l.next + k) % logTail
		b = b[k:]
	}
	return n, nil
}

// keep moves a non-empty log next to resultPath and returns its path and
// what it dropped (0: nothing); an empty log is removed and "" returned.
// The tail follows the head after one line that says how many bytes
// between them were dropped.
func (l *serverLog) keep(resultPath string) (string, int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.written == 0 {
		l.discardLocked()
		return "", 0, nil
	}
	if l.dropped > 0 {
		fmt.Fprintf(l.file, "\n[readbench: %s bytes of the servers' stderr dropped here: kept the first %s and the last %s]\n",
			numfmt.Count(l.dropped), numfmt.Bytes(logHead), numfmt.Bytes(logTail))
	}
	if _, err := l.file.Write(append(l.tail[l.next:len(l.tail):len(l.tail)], l.tail[:l.next]...)); err != nil && l.err == nil {
		l.err = err
	}
	if err := l.file.Close(); err != nil && l.err == nil {
		l.err = err
	}
	name := l.file.Name()
	l.file = nil
	if l.err != nil {
		os.Remove(name)
		return "", 0, l.err
	}
	dst := strings.TrimSuffix(resultPath, ".json") + ".stderr.log"
	if results.IsStream(resultPath) { // nothing to keep it beside: it stays where it is, made visible
		dst = filepath.Join(filepath.Dir(name), strings.TrimPrefix(filepath.Base(name), "."))
	}
	if err := os.Rename(name, dst); err != nil {
		os.Remove(name)
		return "", 0, err
	}
	return dst, l.dropped, nil
}

// discard removes the log unless keep moved it.
func (l *serverLog) discard() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.discardLocked()
}

func (l *serverLog) discardLocked() {
	if l.file != nil {
		l.file.Close()
		os.Remove(l.file.Name())
		l.file = nil
	}
}
