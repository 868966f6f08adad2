package simserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/readbench/readbench/protocol"
)

// ReadTool is the name of the ranged read tool (docs/check.md (read tool)):
// tools/call with arguments {path, offset?, length?} answers
// structuredContent {bytes (standard base64), content_type, eof}. path is a
// sim: URI.
const ReadTool = "read"

func (s *Server) listTools(c *call) answer {
	res := map[string]any{"tools": []map[string]any{{
		"name":        ReadTool,
		"title":       "Ranged read",
		"description": "Reads a file, optionally a byte range. path is a sim: URI; the result's structuredContent holds bytes (base64), content_type and eof (true iff the range ends at the last byte).",
		"inputSchema": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"path":   map[string]string{"type": "string"},
				"offset": map[string]any{"type": "integer", "minimum": 0},
				"length": map[string]any{"type": "integer", "minimum": 0},
			},
			"required": []string{"path"},
		},
		"annotations": map[string]bool{"readOnlyHint": true},
	}, {
		"name":        TouchTool,
		"title":       "Change a resource",
		"description": "Changes the resource uri (a sim: URI): its revision goes up, its content changes, and every subscriber of it is notified before the answer. structuredContent holds uri, revision, seq (the change's server-wide number), changed_at (server time) and notified (subscribers handed the notification).",
		"inputSchema": map[string]any{
			"type":       "object",
			"properties": map[string]any{"uri": map[string]string{"type": "string"}},
			"required":   []string{"uri"},
		},
		"annotations": map[string]bool{"readOnlyHint": false, "idempotentHint": false},
	}}}
	if c.modern { // 2026-07-28 list results carry cache hints
		res["ttlMs"], res["cacheScope"] = 0, "public"
	}
	return s.result(c, mustMarshal(res))
}

type readArgs struct {
	Path   string `json:"path"`
	Offset *int64 `json:"offset"`
	Length *int64 `json:"length"`
}

// callTool answers tools/call of the ranged read tool. Its failures follow
// the tool's codes (not_found, invalid_path, internal) as tool results with
// isError, as MCP wants tool failures; bad arguments are invalid params.
func (s *Server) callTool(ctx, base context.Context, c *call) answer {
	if c.p.Name == TouchTool {
		return s.touchTool(c)
	}
	if c.p.Name != ReadTool {
		return s.fail(c.id, protocol.NewError(protocol.CodeInvalidParams, fmt.Sprintf("Invalid params: unknown tool %q", c.p.Name), nil))
	}
	var args readArgs
	if err := json.Unmarshal(c.p.Arguments, &args); err != nil || args.Path == "" ||
		(args.Offset != nil && *args.Offset < 0) || (args.Length != nil && *args.Length < 0) {
		return s.fail(c.id, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: read wants {path, offset >= 0, length >= 0}", nil))
	}
	s.stats.reads.Add(1)
	s.stats.inFlight.Add(1)
	defer s.stats.inFlight.Add(-1)

	spec, err := ParseSimURI(args.Path)
	var a answer
	switch {
	case errors.Is(err, ErrNotSim):
		a = s.toolError(c, "not_found", "no such file: "+args.Path)
	case err != nil:
		a = s.toolError(c, "invalid_path", err.Error())
	case spec.Entries != 1:
		a = s.toolError(c, "invalid_path", "path is a directory (entries="+fmt.Sprint(spec.Entries)+")")
	case spec.Symlink:
		a = s.toolError(c, "invalid_path", "path is a symlink: stat it and read its target")
	default:
		release, late, ok := s.admit(ctx, base, spec)
		if !ok {
			return answer{}
		}
		defer release()
		if spec.ErrorCode != 0 {
			a = s.toolError(c, "internal", "backing store failed (error="+fmt.Sprint(spec.ErrorCode)+")")
		} else {
			a = s.rangedResult(c, spec, args)
		}
		a.late, a.sse = late, spec.SSE
	}
	a.read = true
	return a
}

// rangedResult slices the resource's bytes: an offset past the end gives
// empty bytes with eof, as docs/check.md (read tool) says; eof is true iff
// the range ends at the last byte.
func (s *Server) rangedResult(c *call, spec *Spec, args readArgs) answer {
	doc := s.document(spec)
	size := doc.Size()
	off := int64(0)
	if args.Offset != nil {
		off = min(*args.Offset, size)
	}
	end := size
	if args.Length != nil && *args.Length < end-off {
		end = off + *args.Length
	}
	chunk := make([]byte, end-off)
	if _, err := doc.ReadAt(chunk, off); err != nil && len(chunk) > 0 {
		return s.toolError(c, "internal", "backing store failed: "+err.Error())
	}
	eof := end == size

	b := make([]byte, 0, base64.StdEncoding.EncodedLen(len(chunk))+256)
	b = append(b, `{"content":[{"type":"text","text":`...)
	b = appendJSONString(b, fmt.Sprintf("%d bytes at offset %d of %d (eof=%t)", len(chunk), off, size, eof))
	b = append(b, `}],"structuredContent":{"bytes":"`...)
	b = base64.StdEncoding.AppendEncode(b, chunk)
	b = append(b, `","content_type":`...)
	b = appendJSONString(b, spec.DeclaredMIME())
	b = append(b, `,"eof":`...)
	b = fmt.Appendf(b, "%t", eof)
	b = append(b, `},"isError":false}`...)
	return s.result(c, b)
}

func (s *Server) toolError(c *call, code, msg string) answer {
	body := mustMarshal(map[string]any{
		"content":           []map[string]string{{"type": "text", "text": code + ": " + msg}},
		"structuredContent": map[string]string{"code": code, "message": msg},
		"isError":           true,
	})
	return s.result(c, body)
}
