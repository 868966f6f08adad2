package client

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// Answer is what one read of a document found, whichever way it was read
// (one resources/read, the read tool in parts, a plain GET or Range
// requests): the one classified answer of the client, which a load run
// turns into a sample, discovery into a size and the contract check into
// its rows. Its outcome is decided in one place (decide).
type Answer struct {
	// Outcome is what the answer is, as far as the client can tell: ok,
	// not_found, invalid_params, internal, rpc_error, method_not_found,
	// input_required, protocol (an answer that cannot be used), transport
	// (no answer: the connection failed) or unauthorized. It is in the
	// run's own vocabulary (stats.Outcome), so nothing translates it; the
	// outcomes only a run knows (timeout, cancelled, expected_error,
	// dropped) are never set here.
	Outcome stats.Outcome
	// Code is the JSON-RPC error code, when the answer was one (0 when it
	// was not).
	Code int
	// Reason is the failure in its own words, unframed: a JSON-RPC error's
	// message as the server sent it, or why an answer that arrived cannot
	// be used ("" when it did not fail). The contract check quotes it.
	Reason string
	// Answered is true when the read ended with something the server sent,
	// so that its timings are an answer's. It is false when the connection
	// failed (outcome transport), and for a whole read whose answer broke
	// the transport's rules (it never arrived whole); a read in parts that
	// breaks them has had its earlier parts answered.
	Answered bool
	// NoToken is true for an unauthorized read never sent: no token could
	// be had for it (the server refused nothing).
	NoToken bool
	// Sent is the first part's send, FirstByte its first byte on the wire
	// (zero when unknown), Done the last part's last byte. Zero when the
	// read failed before a part was sent.
	Sent, FirstByte, Done time.Time
	// FirstUsable is when the first document byte could be used: the end
	// of a whole MCP answer or of the first read-tool part (base64 in JSON
	// is usable once its message is whole), the first body byte over HTTP.
	// Zero when none arrived.
	FirstUsable time.Time
	// ByteCounts are the read's bytes: wire as received (the message and
	// its framing, or an HTTP body), disk decoded, the base64 carried and
	// its padding; the run's own counters, added as they are.
	stats.ByteCounts
	Parts []time.Duration // a read in parts: each part's send → last byte
	Shape stats.Shape     // a whole resources/read's shape findings
	// What a whole resources/read's answer said of itself: its entries,
	// the first entry's mimeType, the cache hints; Digest as
	// ReadSpec.Digest asks.
	Entries    int
	MIME       string
	HasTTL     bool
	TTLMs      int64
	CacheScope string
	// Digest is "sha256:<64 hex>" of the decoded content of every entry in
	// order (text as its UTF-8 bytes, blob base64-decoded), when the read
	// asked for it (ReadSpec.Digest) and the answer is usable; "" otherwise.
	Digest string
	// Detail says why the read failed, for a log line ("" when it did not).
	Detail string
	// WordedMissing is true for a -32601 (Method not found) answer to
	// resources/read whose message says the resource is missing, not the
	// method (SaysResourceMissing): fastmcp 4.20.16 answers a URI it has
	// not got so. Its outcome stays method_not_found: one answer cannot
	// tell a server that misuses the code from one without the method. A
	// run can (a server that has answered resources/read with a result
	// implements it), and settles such reads at its end (stats.ReadSample,
	// Unsettled); the contract check names the misuse.
	WordedMissing bool
	// FreshToken is true when the read was the first of its session on its
	// bearer token (Dial.Auth): a run keeps the latency of such reads apart,
	// since a server often validates a token it meets for the first time
	// at a cost. Always false without Auth.
	FreshToken bool
	// Unreached is true for a read that failed before its request reached
	// the server (undelivered: the connection refused, or failed before a
	// byte of it was written; a stdio request never written whole), its
	// first part's for a read in parts. Its trace context, if any, was
	// received by no one: a run names no trace id for it
	// (docs/results.md, slow_reads).
	Unreached bool
}

// ending is what a read's last exchange came to, as the way of reading
// found it: the facts its outcome is decided from (decide), never an
// outcome itself. The zero ending is a usable answer.
type ending struct {
	// failed is an exchange that ended without an answer: the connection
	// failed, a token was refused (ErrUnauthorized), or what came broke
	// the transport's rules (ErrProtocol).
	failed error
	// unusable is an answer that arrived and cannot be used.
	unusable bool
	// rpc is a JSON-RPC error answer, with its code and message, to what
	// answered says.
	rpc      bool
	code     int
	message  string
	answered errorContext
	// tool is a read-tool result with isError and its code.
	tool     bool
	toolCode string
	// status is an HTTP status that ended a plain read (0: none did).
	status int
	// input is a result of resultType input_required.
	input bool
	// reason is the failure in its own words (Answer.Reason), detail the
	// log line the way of reading says it in (Answer.Detail).
	reason, detail string
}

// unusableAnswer is the ending of a whole answer that arrived and cannot
// be used.
func unusableAnswer(why string) ending {
	return ending{unusable: true, reason: why, detail: "unusable answer: " + why}
}

// unusablePart is the ending of a read in parts that cannot go on.
func unusablePart(why string) ending {
	return ending{unusable: true, reason: why, detail: why}
}

// decide is the one place an answer's outcome is decided, from how its
// read ended, whichever way it was read. Codes decide before words: a
// JSON-RPC error by errorOutcome (by what it answered: the era's
// resources/read or the read tool), a read tool's isError code and a
// plain read's HTTP status by their own small tables; a failed exchange
// is unauthorized (a refused token, decided first), protocol (broken
// framing) or transport; an answer that cannot be used is protocol.
func (a *Answer) decide(e ending) {
	a.Code, a.Reason, a.Detail, a.WordedMissing = 0, e.reason, e.detail, false
	switch {
	case e.failed != nil:
		a.Detail = e.failed.Error()
		switch {
		case errors.Is(e.failed, ErrUnauthorized):
			a.Outcome = stats.Unauthorized
			var ue *UnauthorizedError
			a.NoToken = errors.As(e.failed, &ue) && ue.Status == 0 && ue.Cause != nil
		case errors.Is(e.failed, ErrProtocol):
			a.Outcome = stats.Protocol
		default:
			a.Outcome = stats.Transport
		}
	case e.unusable:
		a.Outcome = stats.Protocol
	case e.rpc:
		a.Code, a.Reason = e.code, e.message
		a.Outcome = errorOutcome(e.code, e.message, e.answered)
		a.WordedMissing = a.Outcome == stats.MethodNotFound && e.answered != toolCall && SaysResourceMissing(e.message)
	case e.tool:
		switch e.toolCode {
		case "not_found":
			a.Outcome = stats.NotFound
		case "invalid_path":
			a.Outcome = stats.InvalidParams
		case "internal":
			a.Outcome = stats.Internal
		default:
			a.Outcome = stats.RPCError
		}
	case e.status != 0:
		switch {
		case e.status == http.StatusNotFound:
			a.Outcome = stats.NotFound
		case e.status == http.StatusBadRequest || e.status == http.StatusRequestedRangeNotSatisfiable:
			a.Outcome = stats.InvalidParams
		case e.status >= 500:
			a.Outcome = stats.Internal
		default:
			a.Outcome = stats.Protocol
		}
	case e.input:
		a.Outcome = stats.InputRequired
	default:
		a.Outcome = stats.OK
	}
}

// errorContext is what a JSON-RPC error answered: what -32602 and a
// server's own codes mean depends on it.
type errorContext uint8

const (
	legacyRead errorContext = iota // resources/read in the handshake era
	modernRead                     // resources/read in the 2026-07-28 era
	toolCall                       // a call of the read tool
)

// errorOutcome is decide's rule for a JSON-RPC error answering a read.
// Servers disagree on the code for a missing resource: -32002 (legacy),
// -32602 (2026-07-28, and the Go SDK in every era), or a code of their
// own. The code decides first, the words last: -32601 is a method the
// server does not implement (its message, "Method not found", says
// nothing about the resource); -32002 is not found; -32603 is internal
// whatever it says; -32602 answering resources/read is not found from a
// 2026-07-28 server or when its message says so (SaysNotFound), else
// invalid params; any other code answering resources/read whose message
// says "not found" is not found too. A tool call's -32602 is not found
// only when worded so (for a tool it also means arguments the tool
// refused), and a tool's own code is an RPC error whatever its words.
func errorOutcome(code int, message string, ctx errorContext) stats.Outcome {
	switch {
	case code == protocol.CodeMethodNotFound:
		return stats.MethodNotFound
	case code == protocol.CodeResourceNotFound:
		return stats.NotFound
	case code == protocol.CodeInternal:
		return stats.Internal
	case code == protocol.CodeInvalidParams && (ctx == modernRead || SaysNotFound(message)):
		return stats.NotFound
	case code == protocol.CodeInvalidParams:
		return stats.InvalidParams
	case ctx != toolCall && SaysNotFound(message):
		return stats.NotFound
	}
	return stats.RPCError
}

// end finishes a read as e says: ctx's error when ctx ended it, the
// deadline's error when the read's own deadline did (ReadSpec.Deadline),
// else its outcome decided (decide) and a nil error.
func (a *Answer) end(ctx context.Context, e ending) (*Answer, error) {
	if e.failed != nil {
		a.Unreached = len(a.Parts) == 0 && undelivered(e.failed)
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		var past *deadlineError
		if errors.As(e.failed, &past) {
			return a, e.failed
		}
	}
	a.decide(e)
	return a, nil
}
