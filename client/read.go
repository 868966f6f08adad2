package client

import (
	"context"
	"time"

	"github.com/readbench/readbench/protocol"
)

// digestPrefix names the hash in an Answer.Digest.
const digestPrefix = "sha256:"

// readSpec is how a transport classifies the answer to a read as it
// streams in: the uri read, the session's era, and whether to hash.
type readSpec struct {
	uri    string
	modern bool
	digest bool
	trace  protocol.TraceParent // the read's trace context (zero: none; tracecontext.go)
	// deadline (zero: none) and its cause, for a transport that puts the
	// deadline on its connection (deadline.go); the others never see one.
	deadline time.Time
	cause    error
	// into, when set, is where an answer scanned on the caller's own
	// goroutine (an HTTP body) is put: a whole read's Response and Answer
	// share the allocation of its spec.
	into *wholeRead
}

// read issues one resources/read and classifies its answer as it streams
// in (Response.read): no transport holds a whole answer to a read, so
// Response.Body is nil. When ctx ends first the read is cancelled the way
// the transport and era say (see docs/measurement.md, cancellation) and
// ctx's error returned. ReadDocument is its one caller.
func (s *Session) read(ctx context.Context, spec *readSpec) (*Response, error) {
	// params nil: sendOnce encodes the read from spec.uri (appendReadRequest)
	a, err := s.sendRead(ctx, protocol.MethodResourcesRead, spec.uri, nil, spec)
	if err != nil {
		return nil, err
	}
	if a.read == nil { // a transport that had the answer whole
		a.read = bufferedReadAnswer(a.Body, a.WireBytes, spec).read
	}
	return a, nil
}

// readResponse is a Response to a read and the Answer its message was
// classified into, in one allocation (a shared stream's, whose reader
// goroutine must not write into the caller's own Answer: the caller may
// have given up on the read and handed its Answer on).
type readResponse struct {
	Response
	ans Answer
}

// scannedAnswer is the Response to a read that sc has followed to its
// end, classified (Response.read), in into when it is given (a whole
// read's own, spec.into: scanned on the caller's goroutine).
func scannedAnswer(into *wholeRead, sc *answerScanner, spec *readSpec, wire int64) *Response {
	var r *Response
	var a *Answer
	if into != nil {
		r, a = &into.resp, &into.ans
		*a = Answer{}
	} else {
		rr := new(readResponse)
		r, a = &rr.Response, &rr.ans
	}
	sc.answer(a, spec.uri, spec.modern)
	if !spec.digest {
		a.Digest = ""
	}
	*r = Response{WireBytes: wire, read: a}
	return r
}

// bufferedReadAnswer classifies a read's answer held whole (an error
// status's body, an answer in an HTTP+SSE POST's body).
func bufferedReadAnswer(body []byte, wire int64, spec *readSpec) *Response {
	var sc answerScanner
	sc.reset(true, spec.uri, spec.digest)
	sc.feed(body)
	a := scannedAnswer(nil, &sc, spec, wire)
	a.Body = body
	return a
}
