package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// The ranged read tool (docs/check.md (read tool)): tools/call "read" with
// {path, offset?, length?} answers structuredContent {bytes (base64),
// content_type, eof}; its failures are tool results with isError and a
// code (not_found, invalid_path, internal), in structuredContent or as
// the text "CODE: message".

// ReadToolName is the name of the ranged read tool.
const ReadToolName = "read"

// ToolPart is one answer of the read tool, decoded: its bytes and eof, or
// how it failed. The contract check and a read in parts decode it alike.
type ToolPart struct {
	Data        []byte
	ContentType string
	EOF         bool
	// Base64Bytes is the length of the base64 the bytes came as, with
	// Base64Padding '=' characters closing it.
	Base64Bytes, Base64Padding int64
	// RPCError is a JSON-RPC error answer (nil when the tool answered).
	RPCError *protocol.Error
	// IsError is a tool result with isError: Code is the tool's error code
	// ("" when it gave none), Message its explanation.
	IsError       bool
	Code, Message string
}

// failed reports whether the part is a failure rather than bytes.
func (p *ToolPart) failed() bool { return p.RPCError != nil || p.IsError }

// ending is how a failed part ended a read in parts at offset off, for
// decide (a part that did not fail ends nothing: the zero ending).
func (p *ToolPart) ending(off int64) ending {
	var e ending
	switch {
	case p.RPCError != nil:
		e.rpc, e.code, e.message, e.answered = true, p.RPCError.Code, p.RPCError.Message, toolCall
	case p.IsError:
		e.tool, e.toolCode, e.reason = true, p.Code, p.Message
	default:
		return e
	}
	e.detail = fmt.Sprintf("read tool at offset %d: %s", off, p.describe())
	return e
}

// describe says in a few words how a failed part failed, for a log line.
func (p *ToolPart) describe() string {
	if p.RPCError != nil {
		return fmt.Sprintf("JSON-RPC error %d %q", p.RPCError.Code, clipText(p.RPCError.Message))
	}
	return "isError, code " + p.Code
}

// ReadTool calls the read tool once: path from offset (nil: not sent)
// for length bytes (nil: not sent, the rest of the file), and decodes the
// answer. An error is ctx's, the transport's, or an answer that is no
// read-tool answer (DecodeToolPart).
func (s *Session) ReadTool(ctx context.Context, path string, offset, length *int64) (ToolPart, *Response, error) {
	return s.readTool(ctx, path, offset, length, protocol.TraceParent{})
}

// readTool is ReadTool carrying trace context tp (when set) in _meta and
// the traceparent header: a part of a traced read in parts.
func (s *Session) readTool(ctx context.Context, path string, offset, length *int64, tp protocol.TraceParent) (ToolPart, *Response, error) {
	args := map[string]any{"path": path}
	if offset != nil {
		args["offset"] = *offset
	}
	if length != nil {
		args["length"] = *length
	}
	params := map[string]any{"name": ReadToolName, "arguments": args}
	if !tp.IsZero() {
		params["_meta"] = s.traceMeta(tp)
	}
	req, err := s.NewRequest(protocol.MethodToolsCall, ReadToolName, params)
	if err != nil {
		return ToolPart{}, nil, err
	}
	req.trace = tp
	a, err := s.Do(ctx, req)
	if err != nil {
		return ToolPart{}, nil, err
	}
	p, err := DecodeToolPart(a.Body)
	return p, a, err
}

// errNotToolAnswer marks an answer that is no read-tool answer; a read in
// parts ends with the protocol kind.
var errNotToolAnswer = errors.New("not a read-tool answer")

// readInParts reads uri with the read tool, spec.Chunk bytes a call, until
// eof.
func (s *Session) readInParts(ctx context.Context, uri string, spec ReadSpec) (*Answer, error) {
	sink, maxBytes := sinkOf(spec)
	a := new(Answer)
	for off, n := int64(0), 0; ; n++ {
		if err := ctx.Err(); err != nil {
			return a, err // ended before this part was sent: never send it
		}
		if n == maxParts || off > maxBytes {
			return partsDone(ctx, a, unusablePart(fmt.Sprintf("no eof after %d parts and %d bytes", n, off)))
		}
		o, length := off, spec.Chunk
		p, msg, err := s.readTool(ctx, uri, &o, &length, spec.Trace)
		if msg == nil { // no answer: the request or the transport failed
			return partsDone(ctx, a, ending{failed: err})
		}
		a.part(msg.Sent, msg.FirstByte, msg.Done, msg.WireBytes, int64(len(p.Data)))
		a.FreshToken = a.FreshToken || msg.FreshToken // any part on a fresh token
		a.Base64Bytes += p.Base64Bytes
		a.Base64Padding += p.Base64Padding
		if err != nil {
			return partsDone(ctx, a, unusablePart(fmt.Sprintf("read tool at offset %d: %s", off, strings.TrimPrefix(err.Error(), errNotToolAnswer.Error()+": "))))
		}
		if p.failed() {
			return partsDone(ctx, a, p.ending(off))
		}
		if a.FirstUsable.IsZero() {
			a.FirstUsable = a.Done
		}
		if _, err := sink.Write(p.Data); err != nil {
			return partsDone(ctx, a, unusablePart(err.Error()))
		}
		off += int64(len(p.Data))
		if p.EOF {
			return partsDone(ctx, a, ending{})
		}
		if len(p.Data) == 0 {
			return partsDone(ctx, a, unusablePart(fmt.Sprintf("read tool at offset %d: empty bytes without eof: the file never ends", off)))
		}
	}
}

// sinkOf is where a read's bytes go and how many a read in parts may take.
func sinkOf(spec ReadSpec) (io.Writer, int64) {
	sink, maxBytes := spec.Sink, spec.MaxBytes
	if sink == nil {
		sink = io.Discard
	}
	if maxBytes <= 0 {
		maxBytes = targets.DefaultMaxAnswer
	}
	return sink, maxBytes
}

// DecodeToolPart decodes a read-tool answer: a JSON-RPC error, an isError
// result with its code (structuredContent's, else the text's "CODE:
// message"), or structuredContent {bytes, content_type, eof}. An error
// (wrapping errNotToolAnswer) says why body is no read-tool answer at all.
// It walks the message with protocol's scanner rather than decoding it
// into Go values: a part's base64 is most of its bytes, and encoding/json
// spent 4 ms validating each 256 KiB part twice.
func DecodeToolPart(body []byte) (ToolPart, error) {
	var p ToolPart
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
		return p, notToolAnswer("not a JSON-RPC message: %w", err)
	case version != "2.0":
		return p, notToolAnswer("jsonrpc is %q, want \"2.0\"", version)
	case rpcErr != nil:
		var e protocol.Error
		if err := json.Unmarshal(rpcErr, &e); err != nil {
			return p, notToolAnswer("error: %w", err)
		}
		p.RPCError = &e
		return p, nil
	case result == nil:
		return p, notToolAnswer("neither result nor error")
	}
	var structured, content []byte
	if err := protocol.ObjectFields(result, func(k, v []byte) error {
		switch string(k) {
		case "isError":
			p.IsError = string(v) == "true"
		case "structuredContent":
			structured = v
		case "content":
			content = v
		}
		return nil
	}); err != nil {
		return p, notToolAnswer("result: %w", err)
	}
	var raw64, eof, code, message, contentType []byte
	if structured != nil && structured[0] == '{' {
		if err := protocol.ObjectFields(structured, func(k, v []byte) error {
			switch string(k) {
			case "bytes":
				raw64 = v
			case "eof":
				eof = v
			case "code":
				code = v
			case "message":
				message = v
			case "content_type":
				contentType = v
			}
			return nil
		}); err != nil {
			return p, notToolAnswer("structuredContent: %w", err)
		}
	}
	if p.IsError {
		p.Code, p.Message = jsonString(code), jsonString(message)
		if p.Code == "" {
			text := firstText(content)
			p.Message = text
			if c, msg, ok := strings.Cut(text, ":"); ok && c != "" && !strings.ContainsAny(c, " \t") {
				p.Code, p.Message = c, strings.TrimSpace(msg)
			}
		}
		return p, nil
	}
	if raw64 == nil || raw64[0] != '"' || (string(eof) != "true" && string(eof) != "false") {
		return p, notToolAnswer("the result has no structuredContent {bytes, content_type, eof}")
	}
	b64 := raw64[1 : len(raw64)-1]
	if bytes.IndexByte(b64, '\\') >= 0 { // escaped (\/ is legal JSON): unescape first
		b64 = []byte(jsonString(raw64))
	}
	p.Data = make([]byte, base64.StdEncoding.DecodedLen(len(b64)))
	n, err := base64.StdEncoding.Decode(p.Data, b64)
	if err != nil {
		return ToolPart{}, notToolAnswer("structuredContent.bytes is not standard base64: %w", err)
	}
	p.Data = p.Data[:n]
	p.ContentType = jsonString(contentType)
	p.EOF, p.Base64Bytes = string(eof) == "true", int64(len(b64))
	p.Base64Padding = int64(len(b64) - len(bytes.TrimRight(b64, "=")))
	return p, nil
}

func notToolAnswer(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errNotToolAnswer}, args...)...)
}

// firstText is the text of a tool result's first content block ("" when
// there is none).
func firstText(content []byte) string {
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil || len(blocks) == 0 {
		return ""
	}
	return blocks[0].Text
}

// jsonString decodes a raw JSON string token ("" when it is not one).
func jsonString(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
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
