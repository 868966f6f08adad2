package simserver

import (
	"errors"
	"fmt"
	"math"
	"mime"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/units"
)

// Scheme is the URI scheme the simulated server serves. Any other scheme is
// answered with the era's not-found error, the way a real server answers a
// URI it does not know.
const Scheme = "sim"

// Limits on what a sim: URI may ask for. They keep a hostile or mistyped URI
// from making the server allocate gigabytes; the largest built-in scenario
// (40 mockups of 3 MB in one folder read) stays well inside them.
const (
	MaxSize    = 256 << 20 // bytes per entry
	MaxEntries = 10000
	MaxTotal   = 1 << 30 // bytes per read, all entries together
	// DefaultSize is the size of a sim: resource whose URI gives none.
	DefaultSize = 1024
	// DefaultMIME is the type of a sim: resource whose URI gives none.
	DefaultMIME = "application/octet-stream"
)

// Fault names a deliberate violation of the read contract, injected with the
// fault= URI option so that a client's response checks can be tested.
type Fault string

// The faults a sim: URI can ask for (see docs/measurement.md (shape)).
const (
	FaultNone       Fault = ""
	FaultNeither    Fault = "neither"     // an entry with neither text nor blob
	FaultBoth       Fault = "both"        // an entry with both text and blob
	FaultBadBase64  Fault = "bad_base64"  // a blob that is not valid base64
	FaultRewriteURI Fault = "rewrite_uri" // an entry whose uri differs from the request
	FaultNoMIME     Fault = "no_mime"     // an entry without mimeType
	FaultEmpty      Fault = "empty"       // an empty contents array
)

// Spec is a parsed sim: URI: everything the server needs to answer a read
// of it. The URI is the whole description of the resource, so that any
// workload can be served without a corpus.
type Spec struct {
	URI     string // as requested; echoed in each entry (entry i of a folder read: URI#i)
	Name    string // the path after sim:///
	MIME    string // the real type of the content (mime=)
	Declare string // the type declared in mimeType when it differs (declare=); "" = MIME
	Size    int64  // decoded bytes per entry (size=)
	Entries int    // contents entries (entries=); 1 unless a folder read

	HasDelay bool          // delay= was given
	Delay    units.Dist    // per-read service delay, sampled per read
	Stall    time.Duration // extra fixed wait (stall=)
	// Hold blocks the stdio input loop for this long once the read is
	// received (hold=): nothing after it on the connection — a cancel, a
	// ping — is read meanwhile, as in a single-threaded server whose event
	// loop a synchronous handler blocks. Stdio only: over HTTP it does nothing.
	Hold time.Duration

	TTLMs int    // ttlMs of a 2026-07-28 result (ttl=)
	Scope string // cacheScope of a 2026-07-28 result (scope=)

	ErrorCode     int   // answer this JSON-RPC error instead of contents (error=); 0 = none
	Fault         Fault // shape violation to inject (fault=)
	HonorCancel   bool  // stop on cancellation (honor_cancel=, default true)
	InputRequired bool  // 2026-07-28: answer resultType input_required (input_required=)
	SSE           bool  // HTTP: answer this read as an SSE stream (sse=)
	Wire          Wire  // framing or matching violation to inject (wire=)
	// Symlink makes the path a symbolic link to the ranged read of seed
	// 004 (symlink=true): the read tool and /files/ refuse it with
	// invalid_path; resources/read, which knows no links, reads it.
	Symlink bool

	base string    // MIME's lower-case type/subtype, parameters dropped
	kind *textKind // how to generate MIME's text; nil for a binary type
	rev  uint64    // the revision served (changes.go): 0 for a document that never changed
}

// ErrNotSim marks a URI that is well formed but not a sim: URI; the server
// answers it as not found.
var ErrNotSim = errors.New("not a sim: URI")

// ErrBadURI marks a URI that cannot be served: malformed, an unknown option
// or a bad option value. The server answers it with invalid params.
var ErrBadURI = errors.New("invalid sim: URI")

// ParseSimURI parses a sim: URI such as
//
//	sim:///NAME?mime=image/png&size=1834208&delay=lognormal(12ms,40ms)
//
// Query options are split on '&' and %XX-decoded; unlike an HTML form, '+'
// stays a plus (mime=image/svg+xml) and ';' is part of a value
// (mime=text/plain;charset=utf-8), because that is how people write media
// types.
//
// It returns an error wrapping ErrNotSim for a URI of another scheme, and one
// wrapping ErrBadURI for a malformed URI, an unknown option, a repeated
// option or a bad value, so that the caller can pick the era's error code.
func ParseSimURI(raw string) (*Spec, error) {
	if raw == "" {
		return nil, fmt.Errorf("%w: empty uri", ErrBadURI)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadURI, err)
	}
	if u.Scheme == "" {
		return nil, fmt.Errorf("%w: %q has no scheme", ErrBadURI, raw)
	}
	if !strings.EqualFold(u.Scheme, Scheme) {
		return nil, fmt.Errorf("%q: %w", raw, ErrNotSim)
	}
	if u.Host != "" || u.User != nil {
		return nil, fmt.Errorf("%w: %q has an authority; write sim:///NAME", ErrBadURI, raw)
	}
	name := u.Opaque
	if name == "" {
		name = strings.TrimPrefix(u.Path, "/")
	}
	s := &Spec{URI: raw, Name: name, MIME: DefaultMIME, Size: DefaultSize, Entries: 1, Scope: "public", HonorCancel: true}
	seen := map[string]bool{}
	for opt := range strings.SplitSeq(u.RawQuery, "&") {
		if opt == "" {
			continue
		}
		rawKey, rawVal, _ := strings.Cut(opt, "=")
		key, err1 := url.PathUnescape(rawKey)
		val, err2 := url.PathUnescape(rawVal)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("%w: query: %w", ErrBadURI, err)
		}
		if seen[key] {
			return nil, fmt.Errorf("%w: option %q given twice", ErrBadURI, key)
		}
		seen[key] = true
		if err := s.set(key, val); err != nil {
			return nil, fmt.Errorf("%w: option %s=%q: %w", ErrBadURI, key, val, err)
		}
	}
	s.base, s.kind = baseType(s.MIME), textKindOf(s.MIME)
	if s.Size*int64(s.Entries) > MaxTotal {
		return nil, fmt.Errorf("%w: %d entries of %d bytes exceed %d bytes per read", ErrBadURI, s.Entries, s.Size, MaxTotal)
	}
	return s, nil
}

// set applies one query option.
func (s *Spec) set(key, v string) error {
	var err error
	switch key {
	case "mime":
		s.MIME, err = parseMIME(v)
	case "declare":
		s.Declare, err = parseMIME(v)
	case "size":
		s.Size, err = units.ParseSize(v)
		if err == nil && (s.Size < 0 || s.Size > MaxSize) {
			err = fmt.Errorf("must be between 0 and %d bytes", MaxSize)
		}
	case "entries":
		s.Entries, err = parseInt(v, 0, MaxEntries)
	case "delay":
		s.Delay, err = units.ParseDurationDist(v)
		s.HasDelay = err == nil
	case "stall":
		s.Stall, err = time.ParseDuration(v)
		if err == nil && (s.Stall < 0 || s.Stall > time.Hour) {
			err = errors.New("must be between 0 and 1h")
		}
	case "hold":
		s.Hold, err = time.ParseDuration(v)
		if err == nil && (s.Hold < 0 || s.Hold > time.Minute) {
			err = errors.New("must be between 0 and 1m")
		}
	case "ttl":
		s.TTLMs, err = parseInt(v, 0, math.MaxInt32)
	case "scope":
		if v != "public" && v != "private" {
			err = errors.New("must be public or private")
		}
		s.Scope = v
	case "error":
		s.ErrorCode, err = parseInt(v, math.MinInt32, math.MaxInt32)
		if err == nil && s.ErrorCode == 0 {
			err = errors.New("0 is not an error code")
		}
	case "fault":
		s.Fault, err = parseFault(v)
	case "honor_cancel":
		s.HonorCancel, err = strconv.ParseBool(v)
	case "input_required":
		s.InputRequired, err = strconv.ParseBool(v)
	case "sse":
		s.SSE, err = strconv.ParseBool(v)
	case "wire":
		s.Wire, err = parseWire(v)
	case "symlink":
		s.Symlink, err = strconv.ParseBool(v)
	default:
		err = errors.New("unknown option")
	}
	return err
}

func parseInt(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("not an integer: %w", err)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("must be between %d and %d", lo, hi)
	}
	return n, nil
}

// parseMIME accepts a media type with optional parameters (text/plain;
// charset=utf-8) and returns it as given, so the declared type is echoed
// byte for byte.
func parseMIME(v string) (string, error) {
	mt, _, err := mime.ParseMediaType(v)
	if err != nil {
		return "", fmt.Errorf("media type: %w", err)
	}
	if i := strings.IndexByte(mt, '/'); i <= 0 || i == len(mt)-1 {
		return "", errors.New("media type must be type/subtype")
	}
	return v, nil
}

func parseFault(v string) (Fault, error) {
	switch f := Fault(v); f {
	case FaultNeither, FaultBoth, FaultBadBase64, FaultRewriteURI, FaultNoMIME, FaultEmpty:
		return f, nil
	}
	return "", errors.New("must be neither, both, bad_base64, rewrite_uri, no_mime or empty")
}

// DeclaredMIME is the mimeType the server declares for each entry.
func (s *Spec) DeclaredMIME() string {
	if s.Declare != "" {
		return s.Declare
	}
	return s.MIME
}

// EntryURI is the uri echoed in entry i: the request URI for a single-entry
// read, URI#i for entry i of a folder read (entries=N), so that a client can
// tell the entries apart and still see which request they answer.
func (s *Spec) EntryURI(i int) string {
	if s.Entries == 1 {
		return s.URI
	}
	return s.URI + "#" + strconv.Itoa(i)
}
