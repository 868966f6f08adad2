package protocol

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
)

// W3C Trace Context (https://www.w3.org/TR/trace-context/) as MCP carries
// it: the traceparent and tracestate of a request go in its params._meta
// under these keys (SEP-414, the OpenTelemetry MCP semantic conventions),
// and over HTTP in the headers of the same names, which proxies and
// gateways read. readbench sends one on every read it samples
// (docs/measurement.md, trace context); the simulated server reads both.
const (
	MetaTraceParent   = "traceparent"
	MetaTraceState    = "tracestate"
	HeaderTraceParent = "Traceparent" // as net/http canonicalises it
	HeaderTraceState  = "Tracestate"
)

// TraceParentLen is the length of a version-00 traceparent.
const TraceParentLen = 55

// TraceID is a W3C trace id: 16 bytes, never all zero.
type TraceID [16]byte

// SpanID is a W3C parent (span) id: 8 bytes, never all zero.
type SpanID [8]byte

// TraceParent is a version-00 traceparent: the trace a request belongs to,
// the span of the caller it is a child of, and the sampled flag, which
// asks the server's tracer to record the trace.
type TraceParent struct {
	Trace   TraceID
	Span    SpanID
	Sampled bool
}

// IsZero reports whether t is no trace id (a read that carried none).
func (t TraceID) IsZero() bool { return t == TraceID{} }

// String is t in lowercase hex, as the header, tracing backends and the
// result file write it.
func (t TraceID) String() string { return hex.EncodeToString(t[:]) }

// String is s in lowercase hex.
func (s SpanID) String() string { return hex.EncodeToString(s[:]) }

// IsZero reports whether p is no trace context.
func (p TraceParent) IsZero() bool { return p.Trace.IsZero() }

// Append appends p's header value, 55 bytes: "00-TRACE-SPAN-FLAGS". It
// costs no allocation: it is written once per read.
func (p TraceParent) Append(dst []byte) []byte {
	dst = append(dst, "00-"...)
	dst = hex.AppendEncode(dst, p.Trace[:])
	dst = append(dst, '-')
	dst = hex.AppendEncode(dst, p.Span[:])
	if p.Sampled {
		return append(dst, "-01"...)
	}
	return append(dst, "-00"...)
}

// String is p's header value.
func (p TraceParent) String() string { return string(p.Append(make([]byte, 0, TraceParentLen))) }

// NewTraceID is a random trace id (W3C level 2: all 16 bytes random), from
// the runtime's per-thread generator: safe for concurrent use, no lock.
func NewTraceID() TraceID {
	var t TraceID
	for t.IsZero() {
		binary.BigEndian.PutUint64(t[:8], rand.Uint64())
		binary.BigEndian.PutUint64(t[8:], rand.Uint64())
	}
	return t
}

// NewSpanID is a random span id.
func NewSpanID() SpanID {
	var s SpanID
	for s == (SpanID{}) {
		binary.BigEndian.PutUint64(s[:], rand.Uint64())
	}
	return s
}

// ParseTraceParent parses a traceparent header or _meta value as the W3C
// recommendation says a receiver must: version 00 is exactly 55
// characters; a later version is read by its first 55 (and a '-' after
// them, if longer); version ff, upper-case hex, an all-zero trace or span
// id are invalid. It is how the simulated server, and tests at real
// servers, check what readbench sent.
func ParseTraceParent(s string) (TraceParent, error) {
	var p TraceParent
	if len(s) < TraceParentLen {
		return p, fmt.Errorf("traceparent %q: %d characters, want %d", clip(s), len(s), TraceParentLen)
	}
	if s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return p, fmt.Errorf("traceparent %q: want version-traceid-parentid-flags", clip(s))
	}
	var version [1]byte
	if err := lowerHex(version[:], s[:2]); err != nil || version[0] == 0xff {
		return p, fmt.Errorf("traceparent %q: version %q is not valid", clip(s), s[:2])
	}
	if version[0] == 0 && len(s) != TraceParentLen || len(s) > TraceParentLen && s[TraceParentLen] != '-' {
		return p, fmt.Errorf("traceparent %q: %d characters, want %d", clip(s), len(s), TraceParentLen)
	}
	var flags [1]byte
	if lowerHex(p.Trace[:], s[3:35]) != nil || lowerHex(p.Span[:], s[36:52]) != nil || lowerHex(flags[:], s[53:55]) != nil {
		return TraceParent{}, fmt.Errorf("traceparent %q: the ids and flags must be lowercase hex", clip(s))
	}
	if p.Trace.IsZero() || p.Span == (SpanID{}) {
		return TraceParent{}, fmt.Errorf("traceparent %q: an all-zero trace or parent id is invalid", clip(s))
	}
	p.Sampled = flags[0]&1 == 1
	return p, nil
}

// ParseTraceID parses a trace id in lowercase hex (the result file's form).
func ParseTraceID(s string) (TraceID, error) {
	var t TraceID
	if len(s) != 32 || lowerHex(t[:], s) != nil || t.IsZero() {
		return TraceID{}, fmt.Errorf("trace id %q: want 32 lowercase hex digits, not all zero", clip(s))
	}
	return t, nil
}

var errNotLowerHex = errors.New("not lowercase hex")

// lowerHex decodes s into dst (len(s) = 2·len(dst)), refusing upper case.
func lowerHex(dst []byte, s string) error {
	for i := range dst {
		hi, ok1 := hexDigit(s[2*i])
		lo, ok2 := hexDigit(s[2*i+1])
		if !ok1 || !ok2 {
			return errNotLowerHex
		}
		dst[i] = hi<<4 | lo
	}
	return nil
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// CheckTraceState checks a tracestate value the user gives (a workload's
// tracestate header) against the W3C grammar's outline: at most 32
// comma-separated list members, each key=value with a non-empty key and
// a value of printable ASCII without ',' or '='; and at most 512
// characters, the size a vendor must propagate.
func CheckTraceState(s string) error {
	if len(s) > 512 {
		return fmt.Errorf("tracestate: %d characters, at most 512", len(s))
	}
	members := 0
	for _, member := range strings.Split(s, ",") {
		member = strings.Trim(member, " \t")
		if member == "" {
			continue
		}
		members++
		k, v, ok := strings.Cut(member, "=")
		if !ok || k == "" || v == "" {
			return fmt.Errorf("tracestate member %q: want key=value", member)
		}
		for i := range len(k) {
			c := k[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '*' || c == '/' || c == '@') {
				return fmt.Errorf("tracestate key %q: lowercase letters, digits and _-*/@ only", k)
			}
		}
		for i := range len(v) {
			if c := v[i]; c < 0x20 || c > 0x7e || c == ',' || c == '=' {
				return fmt.Errorf("tracestate value %q: printable ASCII without ',' or '='", v)
			}
		}
	}
	if members > 32 {
		return fmt.Errorf("tracestate: %d list members, at most 32", members)
	}
	return nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
