package client

import (
	"context"
	"io"
	"time"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// DocumentReader reads one document, however the target serves it, and
// says what the answer is: the one way to read a document, for the load,
// discovery and the contract check alike. Open chooses the
// implementation from the target: a *Session (an MCP target: one
// resources/read, or the read tool in parts) or a *Documents (a
// range+http target: one GET, or Range requests). Callers branch on the
// Answer, never on which of them produced it.
type DocumentReader interface {
	// ReadDocument reads uri as spec says and classifies the answer. It
	// returns ctx's error when ctx ended the read (or the read's own
	// spec.Deadline's), with what was received until then (bytes, parts,
	// timings) in the Answer, never nil. Any other failure (a dead
	// connection, a broken answer) is the Answer's outcome, with a nil
	// error; Answer.Answered says whether anything came back.
	ReadDocument(ctx context.Context, uri string, spec ReadSpec) (*Answer, error)
}

// Conn is an open target as a load run and the contract check meet it:
// it reads documents, says who answered and what it advertised, and
// closes. Open returns one.
type Conn interface {
	DocumentReader
	// Server is what the server said about itself (the handshake's
	// serverInfo, or a plain HTTP server's Server header).
	Server() Implementation
	// ProtocolVersion is the MCP version spoken, "" for plain HTTP.
	ProtocolVersion() string
	// LateAnswersObservable reports whether an answer to a read given up
	// on can still be seen (see Session.LateAnswersObservable).
	LateAnswersObservable() bool
	// Process describes the server process behind the connection, when
	// readbench started it (see Session.Process).
	Process() (pid int, spawnToFirstMessage time.Duration, ok bool)
	// SimURIs reports whether the server advertised that it serves any
	// sim: URI (protocol.CapabilitySimURIs, protocol.HeaderSimURIs), so
	// that mime+size classes can be synthesized instead of discovered.
	SimURIs() bool
	// Connections is what the connection's HTTP pool did so far; ok is
	// false for a target that has no pool (stdio).
	Connections() (st conns.Stats, ok bool)
	Close() error
}

// Open reaches the target and returns the reader its kind calls for: a
// range+http target gets *Documents (plain HTTP, no handshake), every
// other target a *Session whose era is settled. It returns how long
// opening took (the handshake: cold start).
func Open(ctx context.Context, d Dial) (Conn, time.Duration, error) {
	if d.Target.Kind == targets.Files {
		docs, took, err := ConnectDocuments(ctx, d)
		if err != nil {
			return nil, 0, err
		}
		return docs, took, nil
	}
	s, took, err := Connect(ctx, d)
	if err != nil {
		return nil, 0, err
	}
	return s, took, nil
}

// ReadSpec says how to read one document.
type ReadSpec struct {
	// Chunk > 0 reads the document in parts of Chunk bytes until its last
	// byte: the read tool over MCP, Range requests over plain HTTP. 0 reads
	// it whole: one resources/read, or one GET.
	Chunk int64
	// MaxBytes bounds a read in parts: a provider that never says eof is
	// given up on past this many bytes (0: targets.DefaultMaxAnswer).
	MaxBytes int64
	// Digest asks for Answer.Digest (a whole resources/read only): the
	// sha256 of the decoded content of every entry, in order, from which
	// compare tells that a server version changed what a read returns.
	// Decoding base64 costs, so only reads that ask for it pay.
	Digest bool
	// Sink receives the document's bytes in order when the read is in parts
	// or over plain HTTP (nil: counted and dropped). A whole resources/read
	// is classified as it streams and keeps no bytes.
	Sink io.Writer
	// Deadline, when set, ends the read as a context with that deadline
	// and DeadlineCause would (context.WithDeadlineCause): the read is
	// cancelled the way its transport and era say, and its error is
	// errors.Is DeadlineCause (context.DeadlineExceeded when nil) and
	// context.DeadlineExceeded. A whole read over plain http puts it on
	// its connection, which costs nothing per read: a load generator's
	// read timeout belongs here, not in a context of its own.
	Deadline      time.Time
	DeadlineCause error
	// Trace, when set, is the read's W3C trace context: its traceparent
	// goes in params._meta and, over HTTP, in the traceparent header
	// (docs/measurement.md, trace context). A whole resources/read only.
	Trace protocol.TraceParent
}

// ReadDocument reads uri over MCP: whole with one resources/read, or with
// spec.Chunk > 0 in parts with the read tool (readtool.go).
func (s *Session) ReadDocument(ctx context.Context, uri string, spec ReadSpec) (*Answer, error) {
	if _, http := s.t.(*httpTransport); http && spec.Chunk == 0 {
		return s.readWhole(ctx, uri, spec) // its deadline on the connection (deadline.go)
	}
	at := spec.Deadline
	spec.Deadline = time.Time{}
	return withinDeadline(ctx, at, spec.DeadlineCause, func(ctx context.Context) (*Answer, error) {
		if spec.Chunk > 0 {
			return s.readInParts(ctx, uri, spec)
		}
		return s.readWhole(ctx, uri, spec)
	})
}

// readWhole is a whole resources/read, spec.Deadline given to the
// transport.
func (s *Session) readWhole(ctx context.Context, uri string, spec ReadSpec) (*Answer, error) {
	w := &wholeRead{spec: readSpec{uri: uri, modern: s.modern, digest: spec.Digest, deadline: spec.Deadline, trace: spec.Trace}}
	w.spec.into = w
	if !spec.Deadline.IsZero() {
		w.spec.cause = deadlineCause(spec.DeadlineCause)
	}
	r, err := s.read(ctx, &w.spec)
	if err != nil {
		return w.ans.end(ctx, ending{failed: err})
	}
	a := &w.ans
	if r.read != a { // classified on a shared stream's goroutine, or held whole
		*a = *r.read
	}
	a.Answered, a.Sent, a.FirstByte, a.Done = true, r.Sent, r.FirstByte, r.Done
	a.WireBytes, a.FreshToken = r.WireBytes, r.FreshToken
	if a.Outcome == stats.OK {
		a.FirstUsable = a.Done // a JSON answer is usable once whole
	}
	return a, nil
}

// wholeRead is a whole resources/read's Answer and the readSpec its
// answer is classified by, in one allocation; resp is spec.into's
// Response, for an answer scanned on the caller's goroutine.
type wholeRead struct {
	ans  Answer
	spec readSpec
	resp Response
}

// maxParts bounds the parts of one read: a provider that answers ever
// fewer bytes without eof must not keep a read alive for ever.
const maxParts = 1 << 20

// part adds one part's timing and bytes.
func (a *Answer) part(sent, firstByte, done time.Time, wire, disk int64) {
	if a.Sent.IsZero() {
		a.Sent, a.FirstByte = sent, firstByte
	}
	if done.IsZero() {
		done = time.Now()
	}
	a.Done = done
	a.Parts = append(a.Parts, done.Sub(sent))
	a.WireBytes += wire
	a.DiskBytes += disk
}

// partsDone finishes a read in parts as e says (ctx's error, or its
// outcome decided), and whether the read counts as answered.
func partsDone(ctx context.Context, a *Answer, e ending) (*Answer, error) {
	if _, err := a.end(ctx, e); err != nil {
		return a, err
	}
	a.Answered = a.Outcome != stats.Transport // a dead connection is no answer, as for a whole read
	return a, nil
}
