package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/readbench/readbench/targets"
)

// DocumentReader reads one document, however the target serves it, and
// says what the answer is: the one way a load run reads. Open chooses the
// implementation from the target: a *Session (an MCP target: one
// resources/read, or the read tool in parts) or a *Documents (a
// range+http target: one GET, or Range requests). Callers branch on the
// Answer, never on which of them produced it.
type DocumentReader interface {
	// ReadDocument reads uri as spec says and classifies the answer. It
	// returns ctx's error when ctx ended the read, with what was received
	// until then (bytes, parts, timings) in the Answer, never nil. Any
	// other failure (a dead connection, a broken answer) is a Kind of the
	// Answer, with a nil error.
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
	Connections() (st ConnStats, ok bool)
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
	// Digest asks for Answer.Digest (a whole resources/read only; see
	// WithDigest).
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
}

// ByteCounts are a read's bytes: wire as received (the message and its
// framing, or an HTTP body), disk decoded, the base64 carried and its
// padding. The fields match the run's counters in stats, which knows
// nothing of MCP, so a run converts it as it is (as it does Shape).
type ByteCounts struct {
	WireBytes, DiskBytes, Base64Bytes, Base64Padding int64
}

// Answer is what one read of a document found, whichever way it was
// read: the only value a load run maps to an outcome.
type Answer struct {
	Kind Kind
	Code int // JSON-RPC error code, when the answer was one
	// Answered is true when the read ended with something the server sent,
	// so that its timings are an answer's. It is false when the connection
	// failed (Kind Transport), and for a whole read whose answer broke the
	// transport's rules (it never arrived whole); a read in parts that
	// breaks them has had its earlier parts answered.
	Answered bool
	// Sent is the first part's send, FirstByte its first byte on the wire
	// (zero when unknown), Done the last part's last byte. Zero when the
	// read failed before a part was sent.
	Sent, FirstByte, Done time.Time
	// FirstUsable is when the first document byte could be used: the end
	// of a whole MCP answer or of the first read-tool part (base64 in JSON
	// is usable once its message is whole), the first body byte over HTTP.
	// Zero when none arrived.
	FirstUsable time.Time
	ByteCounts
	Parts []time.Duration // a read in parts: each part's send → last byte
	Shape Shape           // a whole resources/read's shape findings
	// What a whole resources/read's answer said of itself: its entries,
	// the first entry's mimeType, the cache hints; Digest as WithDigest.
	Entries    int
	MIME       string
	HasTTL     bool
	TTLMs      int64
	CacheScope string
	Digest     string
	// Detail says why the read failed, for a log line ("" when it did not).
	Detail string
	// FreshToken is true when the read was the first of its session on its
	// bearer token (Dial.Auth): a run keeps the latency of such reads apart,
	// since a server often validates a token it meets for the first time
	// at a cost. Always false without Auth.
	FreshToken bool
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
	w := &wholeRead{spec: readSpec{uri: uri, modern: s.modern, digest: spec.Digest, deadline: spec.Deadline}}
	w.spec.into = &w.resp
	if !spec.Deadline.IsZero() {
		w.spec.cause = deadlineCause(spec.DeadlineCause)
	}
	a, err := s.read(ctx, &w.spec)
	if err != nil {
		return failure(ctx, &w.ans, err)
	}
	v := a.Verdict
	ra := &w.ans
	*ra = Answer{
		Kind: v.Kind, Code: v.Code, Answered: true,
		Sent: a.Sent, FirstByte: a.FirstByte, Done: a.Done,
		ByteCounts: ByteCounts{WireBytes: a.WireBytes, DiskBytes: v.DiskBytes, Base64Bytes: v.Base64Bytes, Base64Padding: v.Padding},
		Shape:      v.Shape, Entries: v.Entries, MIME: v.MIME,
		HasTTL: v.HasTTL, TTLMs: v.TTLMs, CacheScope: v.CacheScope, Digest: v.Digest,
		FreshToken: a.FreshToken,
	}
	switch v.Kind {
	case OK:
		ra.FirstUsable = a.Done // a JSON answer is usable once whole
	case Unusable:
		ra.Detail = "unusable answer: " + v.Detail
	default:
		ra.Detail = v.Detail
	}
	return ra, nil
}

// wholeRead is a whole resources/read's Answer and the readSpec its
// answer is classified by, in one allocation.
type wholeRead struct {
	ans  Answer
	spec readSpec
	resp Response // spec.into
}

// failure ends a read that got an error instead of an answer: ctx's
// error when ctx ended it, else a Kind (errors.Is ErrUnauthorized: the
// unauthorized kind, decided first; ErrProtocol: the protocol kind;
// anything else: the connection failed).
func failure(ctx context.Context, a *Answer, err error) (*Answer, error) {
	if ctx.Err() != nil {
		return a, ctx.Err()
	}
	var past *deadlineError
	if errors.As(err, &past) {
		return a, err
	}
	a.Kind, a.Detail = Transport, err.Error()
	switch {
	case errors.Is(err, ErrUnauthorized):
		a.Kind = Unauthorized
	case errors.Is(err, ErrProtocol):
		a.Kind = Unusable
	}
	return a, nil
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

// fail ends a read in parts with a kind and why.
func (a *Answer) fail(k Kind, format string, args ...any) {
	a.Kind, a.Detail = k, fmt.Sprintf(format, args...)
}

// partsDone finishes a read in parts: the error of a part that failed
// (ctx's, or a Kind), and whether the read counts as answered.
func partsDone(ctx context.Context, a *Answer, err error) (*Answer, error) {
	if err != nil {
		if _, err := failure(ctx, a, err); err != nil {
			return a, err
		}
	}
	a.Answered = a.Kind != Transport // a dead connection is no answer, as for a whole read
	return a, nil
}
