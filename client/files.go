package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/conns"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// Documents fetches plain HTTP documents: the range+http target, the
// ranged read over HTTP (docs/workload.md (targets), docs/check.md). There is no JSON-RPC and no
// handshake: a class's URI path and query are appended to the target's
// prefix, a whole document is one GET, a part of one a GET with a single
// Range. It is safe for concurrent use; open one with Open or
// ConnectDocuments. ReadDocument (filesread.go) is how a run reads; Get
// and Head are the raw answers the contract check judges.
type Documents struct {
	prefix    string // the target's URL prefix, ending in '/'
	client    *http.Client
	headers   http.Header
	maxAnswer int64
	server    Implementation
	simURIs   bool
}

// DocAnswer is one HTTP answer for a document, with its timing. Wire bytes
// are the response body as received, as for Streamable HTTP reads: the
// status line and headers are not counted (docs/measurement.md (wire)).
type DocAnswer struct {
	Status       int
	ContentType  string
	ContentRange string // as sent; "" when none
	AcceptRanges string
	// Start, End (inclusive) and Size are the range the answer says it
	// holds: from Content-Range for 206 (and Size from "bytes */SIZE" for
	// 416), from Content-Length for 200; Size is -1 when not said.
	Start, End, Size int64
	BodyBytes        int64 // body bytes received, also the wire bytes
	// Code is the seed's error code of a JSON error body ({code, message}),
	// "" when the body is not one.
	Code, Message string
	Sent          time.Time
	FirstByte     time.Time // first body byte: the first usable one; zero for an empty body
	Done          time.Time
}

// EOF reports whether the answer holds the document's last byte.
func (a *DocAnswer) EOF() bool {
	return a.Size >= 0 && (a.End+1 >= a.Size || a.Size == 0)
}

// ConnectDocuments opens a range+http target: one HEAD of the prefix
// proves the server is there (any HTTP status will do); its Server header,
// in the form NAME/VERSION, names it in place of a handshake, and its
// protocol.HeaderSimURIs header says whether it serves any sim: URI.
func ConnectDocuments(ctx context.Context, d Dial) (*Documents, time.Duration, error) {
	if d.Target.Kind != targets.Files {
		return nil, 0, fmt.Errorf("target %s: not a range+http target of plain HTTP documents", d.Target)
	}
	if err := targets.CheckAim(d.Target, d.Headers, d.Aim); err != nil {
		return nil, 0, err
	}
	docs := &Documents{prefix: d.Target.Address, client: d.httpClient(), headers: expandHeaders(d.Headers), maxAnswer: answerLimit(d.MaxAnswer)}
	limit := d.handshakeTimeout()
	hctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	d.step("handshake")
	req, err := http.NewRequestWithContext(hctx, http.MethodHead, docs.prefix, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("target %s: %w", d.Target, err)
	}
	docs.setHeaders(req)
	resp, err := docs.client.Do(req)
	if err != nil {
		docs.client.CloseIdleConnections()
		return nil, 0, handshakeExpired(ctx, hctx, limit, d.HandshakeSetBy, transportErr("HEAD %s: %w", targets.RedactSecrets(docs.prefix), err))
	}
	_ = resp.Body.Close()
	if name, version, ok := strings.Cut(resp.Header.Get("Server"), "/"); ok {
		docs.server = Implementation{Name: name, Version: version}
	} else {
		docs.server.Name = resp.Header.Get("Server")
	}
	docs.simURIs = resp.Header.Get(protocol.HeaderSimURIs) == "1"
	return docs, time.Since(start), nil
}

// Server is what the Server header of the prefix's HEAD said.
func (d *Documents) Server() Implementation { return d.server }

// ProtocolVersion is "": plain HTTP speaks no MCP version.
func (d *Documents) ProtocolVersion() string { return "" }

// LateAnswersObservable is false: each GET has its own response, closed
// when the read is given up on, so nothing more can arrive.
func (d *Documents) LateAnswersObservable() bool { return false }

// Process is never known: readbench starts no plain HTTP server.
func (d *Documents) Process() (int, time.Duration, bool) { return 0, 0, false }

// SimURIs reports whether the HEAD of the prefix carried
// protocol.HeaderSimURIs: 1.
func (d *Documents) SimURIs() bool { return d.simURIs }

// Connections is what the target's HTTP connections did so far.
func (d *Documents) Connections() (conns.Stats, bool) { return connStats(d.client) }

// Close drops the idle connections.
func (d *Documents) Close() error {
	d.client.CloseIdleConnections()
	return nil
}

func (d *Documents) setHeaders(req *http.Request) {
	for k, v := range d.headers {
		req.Header[k] = v
	}
}

// URL is where the document uri is fetched: the prefix, then uri's path
// (without its leading slash, as escaped in uri) and query. sim:///log.txt?size=9
// becomes PREFIX/log.txt?size=9.
func (d *Documents) URL(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("uri %q: %w", uri, err)
	}
	p := u.Opaque
	if p == "" {
		p = strings.TrimPrefix(u.EscapedPath(), "/")
	}
	if p == "" {
		return "", fmt.Errorf("uri %q has no path to append to the target's prefix", uri)
	}
	out := d.prefix + p
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	return out, nil
}

// Get fetches uri: the whole document when length < 0, otherwise the bytes
// [offset, offset+length) with a Range header (length 0 asks for nothing
// and is not sent). The body is copied to sink as it arrives (nil: counted
// and dropped), never held, and bounded by the session's answer limit.
// An HTTP error status is an answer, not an error: the caller decides
// what it means. Errors wrap ErrTransport (the request or the body failed)
// or ErrProtocol (over the limit), or are ctx's.
func (d *Documents) Get(ctx context.Context, uri string, offset, length int64, sink io.Writer) (*DocAnswer, error) {
	return d.do(ctx, http.MethodGet, uri, offset, length, sink)
}

// Head asks for uri's headers alone (HEAD), as Get would answer them.
func (d *Documents) Head(ctx context.Context, uri string) (*DocAnswer, error) {
	return d.do(ctx, http.MethodHead, uri, 0, -1, nil)
}

func (d *Documents) do(ctx context.Context, method, uri string, offset, length int64, sink io.Writer) (*DocAnswer, error) {
	target, err := d.URL(uri)
	if err != nil {
		return nil, protocolErr("%w", err)
	}
	a := &DocAnswer{Start: -1, End: -1, Size: -1}
	req, err := http.NewRequestWithContext(ctx, method, target, nil)
	if err != nil {
		return nil, protocolErr("%w", err)
	}
	d.setHeaders(req)
	if length >= 0 {
		if length == 0 {
			return nil, errors.New("client: a range of length 0 cannot be asked for over HTTP")
		}
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", offset, offset+length-1))
	}
	a.Sent = time.Now()
	resp, err := d.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, transportErr("%s %s: %w", method, target, err)
	}
	defer resp.Body.Close()
	a.Status = resp.StatusCode
	a.ContentType, a.ContentRange = resp.Header.Get("Content-Type"), resp.Header.Get("Content-Range")
	a.AcceptRanges = resp.Header.Get("Accept-Ranges")
	a.Start, a.End, a.Size = rangeOf(resp)
	var errBody strings.Builder
	w := sink
	if resp.StatusCode >= 300 {
		w = &limitedBuilder{b: &errBody, max: 4096}
	}
	if err := d.copyBody(ctx, a, resp.Body, w); err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		var e struct{ Code, Message string }
		if json.Unmarshal([]byte(errBody.String()), &e) == nil {
			a.Code, a.Message = e.Code, e.Message
		}
	}
	return a, nil
}

// copyBody copies the body to w, noting the first byte and the last.
func (d *Documents) copyBody(ctx context.Context, a *DocAnswer, body io.Reader, w io.Writer) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if a.BodyBytes == 0 {
				a.FirstByte = time.Now()
			}
			a.BodyBytes += int64(n)
			if a.BodyBytes > d.maxAnswer {
				return tooLargeErr(d.maxAnswer, a.BodyBytes)
			}
			if w != nil {
				if _, werr := w.Write(buf[:n]); werr != nil {
					return werr
				}
			}
		}
		if err == io.EOF {
			a.Done = time.Now()
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return transportErr("reading the body: %w", err)
		}
	}
}

// rangeOf reads the range an answer says it holds (see DocAnswer).
func rangeOf(resp *http.Response) (start, end, size int64) {
	start, end, size = -1, -1, -1
	switch resp.StatusCode {
	case http.StatusOK:
		if resp.ContentLength >= 0 {
			return 0, resp.ContentLength - 1, resp.ContentLength
		}
	case http.StatusPartialContent, http.StatusRequestedRangeNotSatisfiable:
		if s, e, z, ok := ParseContentRange(resp.Header.Get("Content-Range")); ok {
			return s, e, z
		}
	}
	return start, end, size
}

// ParseContentRange reads "bytes FIRST-LAST/SIZE" or "bytes */SIZE"
// (RFC 9110 §14.4); start and end are -1 for the second form, size -1 for
// "/*". ok is false for anything else, or a range that contradicts itself
// (LAST before FIRST, LAST past SIZE).
func ParseContentRange(v string) (start, end, size int64, ok bool) {
	rest, found := strings.CutPrefix(v, "bytes ")
	if !found {
		return -1, -1, -1, false
	}
	rng, total, found := strings.Cut(rest, "/")
	if !found {
		return -1, -1, -1, false
	}
	size = -1
	if total != "*" {
		n, err := strconv.ParseInt(total, 10, 64)
		if err != nil || n < 0 {
			return -1, -1, -1, false
		}
		size = n
	}
	if rng == "*" {
		return -1, -1, size, size >= 0
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return -1, -1, -1, false
	}
	s, err1 := strconv.ParseInt(a, 10, 64)
	e, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || s < 0 || e < s || (size >= 0 && e >= size) {
		return -1, -1, -1, false
	}
	return s, e, size, true
}

// limitedBuilder keeps the first max bytes written and drops the rest.
type limitedBuilder struct {
	b   *strings.Builder
	max int
}

func (l *limitedBuilder) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
