package driver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// Documents read another way than one resources/read (docs/workload.md
// (ranged), docs/measurement.md (ranged reads)): a class with ranged:
// {chunk} fetched with seed 004's ranged read (the MCP tool read, or HTTP
// Range requests on a range+http target) until eof, and every read of a
// range+http target (a plain GET when the class is not ranged). The read's
// latency is the whole fetch, intended start to the last byte of the last
// part; each part's own latency is kept apart (Fetch.Chunks). A deadline
// or a timeout cuts the fetch like any read.

// maxChunks bounds the parts of one fetch: a provider that answers ever
// fewer bytes without eof must not keep a read alive for ever.
const maxChunks = 1 << 20

// ReadToolName is the ranged read tool of seed 004 over MCP.
const ReadToolName = "read"

// Fetch is what fetching one document found.
type Fetch struct {
	Outcome stats.Outcome // set when the fetch ended with an answer (err == nil)
	Detail  string        // why the fetch failed, for the log; "" when ok
	Sent    time.Time     // the first part's send
	// FirstUsable is when the first document byte could be used: the end
	// of the first part over MCP (its base64 is in a JSON message), the
	// first body byte over HTTP. Zero when none arrived.
	FirstUsable time.Time
	FirstByte   time.Time // the first part's first byte on the wire (zero when unknown)
	Done        time.Time // the last part's last byte
	// Bytes of every part received, counted as reads count them: wire as
	// received (message and framing; an HTTP body), disk decoded.
	stats.ByteCounts
	Chunks []time.Duration // each part: its send → its last byte
}

// FetchDocument fetches uri over s: with chunk > 0 in parts of chunk
// bytes until eof (the read tool over MCP, Range requests over a
// range+http session), with chunk 0 whole (one GET; over MCP, one call of
// the read tool without length). The bytes go to sink in order (nil:
// counted and dropped). It returns ctx's error when ctx ended the fetch,
// with what was received until then; any other failure is an Outcome.
func FetchDocument(ctx context.Context, s *client.Session, uri string, chunk, maxBytes int64, sink io.Writer) (Fetch, error) {
	if sink == nil {
		sink = io.Discard
	}
	if maxBytes <= 0 {
		maxBytes = targets.DefaultMaxAnswer
	}
	f := Fetch{Outcome: stats.OK}
	if d := s.Documents(); d != nil {
		return f, f.http(ctx, d, uri, chunk, maxBytes, sink)
	}
	return f, f.mcp(ctx, s, uri, chunk, maxBytes, sink)
}

// fail ends the fetch with an outcome and why.
func (f *Fetch) fail(o stats.Outcome, format string, args ...any) error {
	f.Outcome, f.Detail = o, fmt.Sprintf(format, args...)
	return nil
}

// transportFailure sorts an error of a part: ctx's own, or an outcome.
func (f *Fetch) transportFailure(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, client.ErrProtocol):
		return f.fail(stats.Protocol, "%v", err)
	}
	return f.fail(stats.Transport, "%v", err)
}

// http fetches a plain HTTP document: one GET, or Range requests.
func (f *Fetch) http(ctx context.Context, d *client.Documents, uri string, chunk, maxBytes int64, sink io.Writer) error {
	length := int64(-1)
	if chunk > 0 {
		length = chunk
	}
	for off, n := int64(0), 0; ; n++ {
		if n == maxChunks || off > maxBytes {
			return f.fail(stats.Protocol, "no last byte after %d parts and %d bytes", n, off)
		}
		a, err := d.Get(ctx, uri, off, length, sink)
		if err != nil {
			return f.transportFailure(ctx, err)
		}
		whole := a.Status == http.StatusOK && off == 0 // asked for, or a server that ignores Range
		part := a.Status == http.StatusPartialContent && length > 0
		if part && (a.Start != off || a.Size < 0 || a.BodyBytes != a.End-a.Start+1) {
			f.part(a.Sent, a.FirstByte, a.Done, a.BodyBytes, 0)
			return f.fail(stats.Protocol, "asked bytes %d-%d, got Content-Range %q with %d bytes", off, off+length-1, a.ContentRange, a.BodyBytes)
		}
		disk := int64(0)
		if whole || part {
			disk = a.BodyBytes // an error body is wire, not document
		}
		f.part(a.Sent, a.FirstByte, a.Done, a.BodyBytes, disk)
		if disk > 0 && f.FirstUsable.IsZero() {
			f.FirstUsable = a.FirstByte
		}
		switch {
		case whole:
			return nil
		case part:
			if a.EOF() {
				return nil
			}
			off = a.End + 1
		case a.Status == http.StatusRequestedRangeNotSatisfiable && off == 0 && a.Size == 0:
			return nil // an empty document has no byte 0
		default:
			return f.fail(statusOutcome(a.Status), "HTTP %d for bytes from %d: %s %s", a.Status, off, a.Code, clipText(a.Message))
		}
	}
}

// statusOutcome is the outcome of an HTTP status that ends a fetch.
func statusOutcome(status int) stats.Outcome {
	switch {
	case status == http.StatusNotFound:
		return stats.NotFound
	case status == http.StatusBadRequest || status == http.StatusRequestedRangeNotSatisfiable:
		return stats.InvalidParams
	case status >= 500:
		return stats.Internal
	}
	return stats.Protocol
}

// part adds one part's timing and bytes.
func (f *Fetch) part(sent, firstByte, done time.Time, wire, disk int64) {
	if f.Sent.IsZero() {
		f.Sent, f.FirstByte = sent, firstByte
	}
	if done.IsZero() {
		done = time.Now()
	}
	f.Done = done
	f.Chunks = append(f.Chunks, done.Sub(sent))
	f.WireBytes += wire
	f.DiskBytes += disk
}

// mcp fetches with the read tool: tools/call read {path, offset, length}
// until eof.
func (f *Fetch) mcp(ctx context.Context, s *client.Session, uri string, chunk, maxBytes int64, sink io.Writer) error {
	for off, n := int64(0), 0; ; n++ {
		if n == maxChunks || off > maxBytes {
			return f.fail(stats.Protocol, "no eof after %d parts and %d bytes", n, off)
		}
		args := map[string]any{"path": uri, "offset": off}
		if chunk > 0 {
			args["length"] = chunk
		}
		req, err := s.NewRequest(protocol.MethodToolsCall, ReadToolName, map[string]any{"name": ReadToolName, "arguments": args})
		if err != nil {
			return f.fail(stats.Protocol, "%v", err)
		}
		a, err := s.Do(ctx, req)
		if err != nil {
			return f.transportFailure(ctx, err)
		}
		p, o, why := decodePart(a.Body)
		f.part(a.Sent, a.FirstByte, a.Done, a.WireBytes, int64(len(p.data)))
		f.Base64Bytes += p.b64
		f.Base64Padding += p.padding
		if o != stats.OK {
			return f.fail(o, "read tool at offset %d: %s", off, why)
		}
		if f.FirstUsable.IsZero() {
			f.FirstUsable = f.Done
		}
		if _, err := sink.Write(p.data); err != nil {
			return f.fail(stats.Protocol, "%v", err)
		}
		off += int64(len(p.data))
		if p.eof {
			return nil
		}
		if len(p.data) == 0 {
			return f.fail(stats.Protocol, "read tool at offset %d: empty bytes without eof: the file never ends", off)
		}
	}
}

// toolPart is one decoded answer of the read tool.
type toolPart struct {
	data         []byte
	eof          bool
	b64, padding int64
}

// decodePart decodes a read-tool answer: the bytes and eof, or the outcome
// of its failure (a JSON-RPC error by its code, an isError result by the
// seed's code: not_found, invalid_path as invalid params, internal). It
// walks the message with protocol's scanner rather than decoding it into Go
// values (DESIGN §8: a part's base64 is most of its bytes, and
// encoding/json spent 4 ms validating each 256 KiB part twice).
func decodePart(body []byte) (toolPart, stats.Outcome, string) {
	var p toolPart
	var result, rpcErr []byte
	version := ""
	err := protocol.ObjectFields(body, func(k, v []byte) error {
		switch string(k) {
		case "jsonrpc":
			version = strings.Trim(string(v), `"`)
		case "result":
			result = v
		case "error":
			rpcErr = v
		}
		return nil
	})
	switch {
	case err != nil:
		return p, stats.Protocol, "not a JSON-RPC message: " + err.Error()
	case version != "2.0":
		return p, stats.Protocol, fmt.Sprintf("jsonrpc is %q, want \"2.0\"", version)
	case rpcErr != nil:
		var e protocol.Error
		if err := json.Unmarshal(rpcErr, &e); err != nil {
			return p, stats.Protocol, "error: " + err.Error()
		}
		return p, rpcOutcome(e.Code, e.Message), fmt.Sprintf("JSON-RPC error %d %q", e.Code, clipText(e.Message))
	case result == nil:
		return p, stats.Protocol, "neither result nor error"
	}
	var isError bool
	var structured []byte
	if err := protocol.ObjectFields(result, func(k, v []byte) error {
		switch string(k) {
		case "isError":
			isError = string(v) == "true"
		case "structuredContent":
			structured = v
		}
		return nil
	}); err != nil {
		return p, stats.Protocol, "result: " + err.Error()
	}
	var raw64, eof, code []byte
	if structured != nil {
		if err := protocol.ObjectFields(structured, func(k, v []byte) error {
			switch string(k) {
			case "bytes":
				raw64 = v
			case "eof":
				eof = v
			case "code":
				code = v
			}
			return nil
		}); err != nil {
			return p, stats.Protocol, "structuredContent: " + err.Error()
		}
	}
	if isError {
		c := jsonString(code)
		return p, toolOutcome(c), "isError, code " + c
	}
	if raw64 == nil || raw64[0] != '"' || (string(eof) != "true" && string(eof) != "false") {
		return p, stats.Protocol, "no structuredContent {bytes, eof}"
	}
	b64 := raw64[1 : len(raw64)-1]
	if bytes.IndexByte(b64, '\\') >= 0 { // escaped (\/ is legal JSON): unescape first
		b64 = []byte(jsonString(raw64))
	}
	p.data = make([]byte, base64.StdEncoding.DecodedLen(len(b64)))
	n, err := base64.StdEncoding.Decode(p.data, b64)
	if err != nil {
		return toolPart{}, stats.Protocol, "bytes: " + err.Error()
	}
	p.data = p.data[:n]
	p.eof, p.b64 = string(eof) == "true", int64(len(b64))
	p.padding = int64(len(b64) - len(bytes.TrimRight(b64, "=")))
	return p, stats.OK, ""
}

// clipText keeps the start of a server's message: one quoting a whole
// part's base64 must not flood the log.
func clipText(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + fmt.Sprintf("… (%d bytes)", len(s))
}

// jsonString decodes a raw JSON string token ("" when it is not one).
func jsonString(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// rpcOutcome is the outcome of a JSON-RPC error answering a part of a
// ranged read (a tools/call): the codes map as a read's do, and a -32602
// worded as not found (client.SaysNotFound) is not_found, as it is for a
// whole read. A tool's -32602 is not taken as not found from the era
// alone: for a tool call it also means arguments the tool refused.
func rpcOutcome(code int, message string) stats.Outcome {
	switch code {
	case protocol.CodeResourceNotFound:
		return stats.NotFound
	case protocol.CodeInvalidParams:
		if client.SaysNotFound(message) {
			return stats.NotFound
		}
		return stats.InvalidParams
	case protocol.CodeInternal:
		return stats.Internal
	}
	return stats.RPCError
}

func toolOutcome(code string) stats.Outcome {
	switch code {
	case "not_found":
		return stats.NotFound
	case "invalid_path":
		return stats.InvalidParams
	case "internal":
		return stats.Internal
	}
	return stats.RPCError
}

// chunkOf is the class's chunk size, 0 when it is read whole.
func (r *runner) chunkOf(att workload.Attachment) int64 {
	if c := r.w.Mix[att.Class].Ranged; c != nil {
		return c.Chunk
	}
	return 0
}

// readDocument performs a read that is not one resources/read (see the
// top of this file) and records it. rctx is the read's context (its
// timeout and the turn's deadline); sample has been filled up to the send.
func (r *runner) readDocument(rctx context.Context, s *client.Session, intended time.Time, att workload.Attachment, sample stats.ReadSample, rec *stats.Recorder) (stats.Outcome, time.Time) {
	f, err := FetchDocument(rctx, s, att.URI, r.chunkOf(att), r.w.Turn.MaxAnswer, nil)
	now := time.Now()
	sample.ByteCounts = f.ByteCounts
	sample.Chunks = f.Chunks
	if f.Sent.IsZero() { // the first part failed before it was sent
		f.Sent = intended.Add(sample.Lag)
	}
	if f.Done.IsZero() {
		f.Done = now
	}
	switch {
	case err == nil:
		// A transport failure is not an answer, as for resources/read.
		sample.Outcome, sample.Answered = f.Outcome, f.Outcome != stats.Transport
		sample.Latency, sample.Service = f.Done.Sub(intended), f.Done.Sub(f.Sent)
		if !f.FirstByte.IsZero() {
			sample.TTFB = f.FirstByte.Sub(f.Sent)
		}
		if !f.FirstUsable.IsZero() && f.Outcome == stats.OK {
			sample.FirstUsable = f.FirstUsable.Sub(intended)
		}
		if r.cold != nil && !f.Sent.IsZero() {
			r.cold.Read(f.Sent, f.Done)
		}
		if f.Detail != "" {
			r.logFailure(att.URI, f.Detail)
		}
		now = f.Done
	case errors.Is(context.Cause(rctx), errReadTimeout):
		sample.Outcome, sample.LowerBound, sample.Latency = stats.Timeout, true, now.Sub(intended)
		r.abandoned.Add(1)
	default:
		sample.Outcome, sample.LowerBound, sample.Latency = stats.Cancelled, true, now.Sub(intended)
		r.abandoned.Add(1)
	}
	sample.End = now
	return r.record(rec, sample, att)
}
