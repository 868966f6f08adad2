package record

import (
	"errors"
	"fmt"
	"os"
)

// spoolMemory is how much of one message the proxy keeps in memory while
// it passes; past it the message goes on in a file (spillFile), so that a
// huge answer (a folder read of 160 MB, a hostile 256 MiB one) costs the
// proxy a file's pages, which the kernel can drop, rather than its heap.
const spoolMemory = 4 << 20

// spool holds one message as it streams through the proxy, to classify it
// whole once it has ended (client.ClassifyMessage needs the message as
// one byte slice): in memory up to spoolMemory, then in an unnamed file
// mapped into memory at the end (view). Past limit bytes it stops keeping
// them and only counts. A spool is one splitter's: not safe for
// concurrent use.
type spool struct {
	dir   string // where the file is made ("": os.TempDir)
	limit int64  // past it nothing is kept
	mem   []byte
	f     *os.File
	n     int64 // bytes written, kept or not
	err   error // the file failed: the message cannot be classified
}

// Write keeps p (never fails: a failure is reported by view).
func (s *spool) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	if s.n > s.limit || s.err != nil {
		return len(p), nil
	}
	if s.f == nil && (!canSpill || len(s.mem)+len(p) <= spoolMemory) {
		if need := len(s.mem) + len(p); need > cap(s.mem) { // doubling: append's 1.25x copies 5 times the message
			grown := make([]byte, len(s.mem), max(need, 2*cap(s.mem), 32<<10))
			copy(grown, s.mem)
			s.mem = grown
		}
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	if s.f == nil {
		if s.f, s.err = spillFile(s.dir); s.err != nil {
			return len(p), nil
		}
		if _, s.err = s.f.Write(s.mem); s.err != nil {
			return len(p), nil
		}
		s.mem = s.mem[:0]
	}
	if _, err := s.f.Write(p); err != nil {
		s.err = err
	}
	return len(p), nil
}

// over reports whether the message passed limit.
func (s *spool) over() bool { return s.n > s.limit }

// view is the whole message, valid until release is called.
func (s *spool) view() (msg []byte, release func(), err error) {
	switch {
	case s.err != nil:
		return nil, func() {}, fmt.Errorf("record: keeping a message of %d bytes: %w", s.n, s.err)
	case s.over():
		return nil, func() {}, errors.New("record: message over the limit")
	case s.f == nil:
		return s.mem, func() {}, nil
	}
	return mapFile(s.f, s.n)
}

// reset readies the spool for the next message: its file is closed (it
// has no name: its space is freed), and a large memory buffer dropped, so
// that an idle connection holds none of its last answer.
func (s *spool) reset() {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	if cap(s.mem) > 64<<10 {
		s.mem = nil
	}
	s.mem, s.n, s.err = s.mem[:0], 0, nil
}
