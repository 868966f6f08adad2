package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/readbench/readbench/internal/numfmt"
)

// A stdio server must write nothing on its stdout that is not a JSON-RPC
// message (the MCP stdio transport): a server that logs there ("Server
// running on stdio", a stack trace, a banner) is common, and to a client
// its lines are noise it skips. Skipped in silence, they cost a newcomer
// the whole handshake timeout and then a message that never mentions
// them. So every such line is counted, the first few are quoted, and the
// count is told as it grows: the handshake fails strayGrace after the
// first one when no answer came, a run's log says so as they come, and
// the error of a server that dies quotes what it printed.

// Bounds of what is kept of stray lines: how many are quoted, and how
// much of each.
const (
	maxStrayQuoted = 3
	maxStrayQuote  = 80 // bytes
)

// strayGrace is how long a handshake waits for its answer after the
// server's first stray line: a server that prints a banner and then
// answers is let through (and told of it); one that only prints fails in
// seconds, not at the handshake timeout.
const strayGrace = 2 * time.Second

// StrayError is what a server sent on a stream shared by its answers (a
// stdio server's stdout, an HTTP+SSE stream) that a client can only skip:
// lines that are not JSON-RPC (stdio), answers whose id matches no request
// readbench sent, and second answers to a request already answered. Each
// is counted and the first few quoted, so that none passes in silence. It
// unwraps to ErrProtocol: a server bug, never the network's.
type StrayError struct {
	Lines  int64
	Quoted []string // at most maxStrayQuoted, each cut to maxStrayQuote bytes
	// Unknown counts answers to an id readbench never sent (or no integer
	// id at all: a string, null); UnknownIDs quotes the first few ids.
	Unknown    int64
	UnknownIDs []string
	// Duplicates counts answers to an id readbench had already had its
	// answer for (or had given up on and had its late answer for): the
	// server answered one request twice. DuplicateIDs quotes the first few.
	Duplicates   int64
	DuplicateIDs []string
}

func (e *StrayError) Error() string {
	var parts []string
	if e.Lines > 0 {
		parts = append(parts, e.lines())
	}
	if e.Unknown > 0 {
		parts = append(parts, fmt.Sprintf("the server sent %s to ids readbench never sent (id %s), skipped",
			plural(e.Unknown, "answer"), quoteIDs(e.UnknownIDs, e.Unknown)))
	}
	if e.Duplicates > 0 {
		parts = append(parts, fmt.Sprintf("the server answered %s a second time (id %s), the second answer skipped",
			plural(e.Duplicates, "request"), quoteIDs(e.DuplicateIDs, e.Duplicates)))
	}
	return strings.Join(parts, "; ")
}

// plural is n things, "1 answer" or "3 answers".
func plural(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// quoteIDs lists the quoted ids of n, "5, 7 and 3 more".
func quoteIDs(ids []string, n int64) string {
	s := strings.Join(ids, ", ")
	if more := n - int64(len(ids)); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// lines says the stray lines: how many, the first few quoted.
func (e *StrayError) lines() string {
	what := "1 line that is not JSON-RPC"
	if e.Lines != 1 {
		what = fmt.Sprintf("%d lines that are not JSON-RPC", e.Lines)
	}
	q := make([]string, len(e.Quoted))
	for i, s := range e.Quoted {
		q[i] = "`" + s + "`"
	}
	more := ""
	if n := e.Lines - int64(len(e.Quoted)); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("the server printed %s on stdout: %s%s; servers must log to stderr (stdout carries JSON-RPC only)", what, strings.Join(q, ", "), more)
}

// Unwrap makes stray lines a protocol violation for errors.Is.
func (e *StrayError) Unwrap() error { return ErrProtocol }

// strayLines counts what one server sent that a client can only skip
// (StrayError): its stray lines, and answers to no request in flight; the
// reader adds, the handshake and the session's owner read.
type strayLines struct {
	first chan struct{} // closed at the first stray line or unknown id

	mu     sync.Mutex
	n      int64
	quoted []string
	report func(error) // told of each (nil: not told); called by the reader

	unknown, dups   int64
	unknownQ, dupsQ []string // at most maxStrayQuoted ids each
	firstClosed     bool
}

func newStrayLines() *strayLines { return &strayLines{first: make(chan struct{})} }

// tell makes report hear of every stray line from now on (with the count
// so far), and at once of those already counted.
func (s *strayLines) tell(report func(error)) {
	s.mu.Lock()
	s.report = report
	s.mu.Unlock()
	if err := s.err(); err != nil && report != nil {
		report(err)
	}
}

// add counts a stray line of n bytes, of which head is the beginning.
func (s *strayLines) add(head []byte, n int64) {
	s.mu.Lock()
	s.n++
	if len(s.quoted) < maxStrayQuoted {
		s.quoted = append(s.quoted, quoteLine(head, n))
	}
	s.told(true)
}

// unmatched counts an answer whose raw id matches no request in flight:
// a second answer to a request already answered (dup), else an answer to
// an id readbench never sent. An unknown id counts as a stray line does
// for a handshake waiting for its answer (failFast): the answer it waits
// for may be that one, with a wrong id.
func (s *strayLines) unmatched(id []byte, dup bool) {
	q := quoteLine(id, int64(len(id)))
	s.mu.Lock()
	if dup {
		s.dups++
		if len(s.dupsQ) < maxStrayQuoted {
			s.dupsQ = append(s.dupsQ, q)
		}
	} else {
		s.unknown++
		if len(s.unknownQ) < maxStrayQuoted {
			s.unknownQ = append(s.unknownQ, q)
		}
	}
	s.told(!dup)
}

// told ends what add and unmatched do (s.mu held, released here): first
// closes the first channel once, and report hears of the count so far.
func (s *strayLines) told(first bool) {
	closeFirst := first && !s.firstClosed
	if closeFirst {
		s.firstClosed = true
	}
	report := s.report
	s.mu.Unlock()
	if closeFirst {
		close(s.first)
	}
	if report != nil {
		report(s.err())
	}
}

// err is the stray lines so far as a *StrayError; nil when none.
func (s *strayLines) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 && s.unknown == 0 && s.dups == 0 {
		return nil
	}
	return &StrayError{
		Lines: s.n, Quoted: append([]string(nil), s.quoted...),
		Unknown: s.unknown, UnknownIDs: append([]string(nil), s.unknownQ...),
		Duplicates: s.dups, DuplicateIDs: append([]string(nil), s.dupsQ...),
	}
}

// quoteLine is the beginning of a line of n bytes, printable: cut to
// maxStrayQuote bytes at a character's end ("…" when anything was left
// out), invalid UTF-8 and control characters shown as �.
func quoteLine(head []byte, n int64) string {
	s := strings.ToValidUTF8(string(head), "\uFFFD")
	cut := int64(len(head)) < n
	if len(s) > maxStrayQuote {
		k := maxStrayQuote
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		s, cut = s[:k], true
	}
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return '\uFFFD'
		}
		return r
	}, strings.TrimRight(s, "\r"))
	if cut {
		s += "…"
	}
	return s
}

// failFast returns a context that ends, with the stray lines as its
// cause, grace after the first stray line (if no answer ended the
// handshake first), and the function that releases it.
func (s *strayLines) failFast(ctx context.Context, grace time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-s.first:
		case <-done:
			return
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel(&strayHandshakeError{grace: grace, stray: s.err()})
		case <-done:
		}
	})
	return ctx, func() {
		close(done)
		wg.Wait()
		cancel(nil)
	}
}

// strayHandshakeError is a handshake given up strayGrace after the
// server's first stray line, no answer having come.
type strayHandshakeError struct {
	grace time.Duration
	stray error
}

func (e *strayHandshakeError) Error() string {
	return fmt.Sprintf("%v (no answer to the handshake came within %s of the first)", e.stray, numfmt.Duration(e.grace))
}

func (e *strayHandshakeError) Unwrap() error { return e.stray }
