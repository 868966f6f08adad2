package client

import (
	"context"
	"fmt"
	"time"

	"github.com/readbench/readbench/protocol"
)

// ReadOption asks Session.Read for more than the verdict every read gets.
type ReadOption func(*readConfig)

// readConfig is what the options of one read asked for.
type readConfig struct {
	digest bool
}

// WithDigest asks for Verdict.Digest: the sha256 of the decoded content of
// every entry, in order. compare tells from it that a server version
// changed what a read returns. Decoding base64 costs, so only reads that
// ask for it pay.
func WithDigest() ReadOption { return func(c *readConfig) { c.digest = true } }

// digestPrefix names the hash in a Verdict.Digest.
const digestPrefix = "sha256:"

// readSpec is how a transport classifies the answer to a read as it
// streams in: the uri read, the session's era, and whether to hash.
type readSpec struct {
	uri    string
	modern bool
	digest bool
	// deadline (zero: none) and its cause, for a transport that puts the
	// deadline on its connection (deadline.go); the others never see one.
	deadline time.Time
	cause    error
	// into, when set, is where an answer scanned on the caller's own
	// goroutine (an HTTP body) is put: a whole read's Response shares
	// its Answer's allocation.
	into *Response
}

// Read issues one resources/read and classifies its answer as it streams
// in (Response.Verdict): no transport holds a whole answer to a read, so
// Response.Body is nil, except for a JSON-RPC error, whose id and error
// members it keeps. When ctx ends first the read is cancelled the way the
// transport and era say (see docs/measurement.md, cancellation) and ctx's
// error returned.
func (s *Session) Read(ctx context.Context, uri string, opts ...ReadOption) (*Response, error) {
	var cfg readConfig
	for _, o := range opts {
		o(&cfg)
	}
	return s.read(ctx, &readSpec{uri: uri, modern: s.modern, digest: cfg.digest})
}

// read is Read with its options decided in spec (ReadDocument's way in:
// options are closures over a config that escapes, an allocation per
// read; and its spec shares the Answer's allocation).
func (s *Session) read(ctx context.Context, spec *readSpec) (*Response, error) {
	uri := spec.uri
	// params nil: sendOnce encodes the read from spec.uri (appendReadRequest)
	a, err := s.sendRead(ctx, protocol.MethodResourcesRead, uri, nil, spec)
	if err != nil {
		return nil, err
	}
	if !a.classified { // a transport that had the answer whole
		a.Verdict, a.classified = bufferedReadAnswer(a.Body, a.WireBytes, spec).Verdict, true
	}
	return a, nil
}

// scannedAnswer is the Response to a read that sc has followed to its
// end, in dst when it is given (a whole read's own, spec.into).
func scannedAnswer(dst *Response, sc *answerScanner, spec *readSpec, wire int64) *Response {
	v := sc.verdict(spec.uri, spec.modern)
	if !spec.digest {
		v.Digest = ""
	}
	a := dst
	if a == nil {
		a = new(Response)
	}
	*a = Response{Verdict: v, WireBytes: wire, classified: true}
	if sc.msg.hasError && !sc.msg.errOver {
		id := sc.idOf()
		if id == nil {
			id = nullLiteral
		}
		a.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":%s}`, id, sc.msg.errRaw)
	}
	return a
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
