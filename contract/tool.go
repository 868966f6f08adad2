package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
)

// The ranged read tool (docs/check.md (read tool)): tools/call "read" with
// {path, offset?, length?} answers structuredContent {bytes (base64),
// content_type, eof}; its failures are tool results with isError and a
// code (not_found, invalid_path, internal).
const (
	// Paths on a server that serves any sim: URI (it advertised so, as the
	// simulated server does): a file, a folder (several entries: a
	// directory to the tool) and a non-sim path.
	simToolFile    = "sim:///readbench-check/ranged.bin?mime=application/octet-stream&size=10000"
	simToolDir     = "sim:///readbench-check/folder?entries=3"
	simToolSymlink = "sim:///readbench-check/link.bin?symlink=true"
	simToolType    = "application/octet-stream" // simToolFile's type, as resources/list would list it
	simToolUnknown = "docs://readbench-check/no-such-file-7f3a9c"
	toolUnknown    = "/readbench-check/no-such-file-7f3a9c"
	maxToolPages   = 20
	maxToolCalls   = 64       // calls to fetch a whole file from a provider that caps length
	maxToolBytes   = 64 << 20 // bytes of a whole file the check will hold
)

// readTool checks the ranged read tool's semantics where it is offered.
func (c *checker) readTool(ctx context.Context) {
	if caps := c.s.Capabilities(); caps.Known && !caps.Tools {
		c.rep.add("read tool", results.CheckNA, "", "the server declares no tools capability")
		return
	}
	if st, why := c.findReadTool(ctx); why != "" {
		c.rep.add("read tool", st, "", why)
		return
	}
	file, dir, unknown := c.toolPaths()
	if file == "" {
		c.rep.add("read tool", results.CheckSkip, "", "readbench cannot guess a file path on this server: give --read-path PATH")
	} else {
		c.toolRanges(ctx, file)
	}
	if dir != "" {
		c.toolFailure(ctx, "read tool: directory", dir, []string{"invalid_path"})
	}
	if c.sim {
		c.toolFailure(ctx, "read tool: symlink", simToolSymlink, []string{"invalid_path"})
	}
	c.toolFailure(ctx, "read tool: unknown path", unknown, []string{"not_found", "invalid_path"})
}

// findReadTool walks tools/list for a tool named read that takes path,
// offset and length; it returns why not when there is none: not
// applicable when the server offers no such tool, skip when tools/list
// could not tell.
func (c *checker) findReadTool(ctx context.Context) (results.CheckStatus, string) {
	why := "no tool named read in tools/list"
	_, err := c.s.Paginate(ctx, protocol.MethodToolsList, maxToolPages, c.o.Timeout, func(raw json.RawMessage) (string, error) {
		var res struct {
			Tools []struct {
				Name        string `json:"name"`
				InputSchema struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"inputSchema"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return "", err
		}
		for _, t := range res.Tools {
			if t.Name != client.ReadToolName {
				continue
			}
			why = ""
			for _, p := range []string{"path", "offset", "length"} {
				if _, ok := t.InputSchema.Properties[p]; !ok {
					why = "the tool named read takes no " + p + ": it is not the ranged read of docs/check.md (read tool)"
					break
				}
			}
			return "", nil // found: the walk ends here
		}
		return res.NextCursor, nil
	})
	switch {
	case err != nil && isMethodNotFound(err):
		return results.CheckNA, "the server offers no tools (tools/list: method not found)"
	case err != nil:
		return results.CheckSkip, "tools/list failed: " + err.Error()
	}
	return results.CheckNA, why
}

// toolPaths returns a file, a directory ("" when unknown) and a path that
// cannot exist.
func (c *checker) toolPaths() (file, dir, unknown string) {
	if c.sim {
		return simToolFile, simToolDir, simToolUnknown
	}
	file = c.o.ReadPath
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		dir = file[:i]
		if dir == "" || strings.HasSuffix(dir, "/") {
			dir += "/"
		}
	}
	if dir == file {
		dir = ""
	}
	return file, dir, toolUnknown
}

// toolRanges reads the whole file, then checks each range rule of the
// tool (docs/check.md (read tool)) against it.
func (c *checker) toolRanges(ctx context.Context, path string) {
	whole, calls, ct, err := c.toolWhole(ctx, path)
	if err != nil {
		c.rep.add("read tool: whole file", results.CheckFail, path, err.Error())
		return
	}
	d := fmt.Sprintf("%d bytes, eof true, content_type %q", len(whole), ct)
	if calls > 1 {
		d += fmt.Sprintf(" (in %d calls: the provider caps length)", calls)
	}
	c.rep.add("read tool: whole file", results.CheckPass, path, d)
	switch want := c.listedType(path); {
	case want == "":
		c.rep.add("read tool: content type", results.CheckSkip, path, "the path is not in resources/list: nothing to compare content_type with")
	case ct != want:
		c.rep.add("read tool: content type", results.CheckFail, path, fmt.Sprintf("content_type %q, the listing says %q", ct, want))
	default:
		c.rep.add("read tool: content type", results.CheckPass, path, fmt.Sprintf("%q, as the listing says", ct))
	}
	size := int64(len(whole))
	if size < 2 {
		c.rep.add("read tool: range", results.CheckSkip, path, fmt.Sprintf("the file has %d bytes: too small to read a part of", size))
		return
	}
	cases := append(rangeProbes("read tool", whole),
		rangeProbe{"read tool: past the end", size + 1000, 16, nil, true},
		rangeProbe{"read tool: length 0", 0, 0, nil, false})
	for _, tc := range cases {
		ta, err := c.toolCall(ctx, path, &tc.offset, &tc.length)
		st, detail := judgeRange(ta, err, tc.want, tc.eof)
		c.rep.add(tc.name, st, path, fmt.Sprintf("offset %d, length %d of %d: %s", tc.offset, tc.length, size, detail))
	}
}

// rangeProbe is one part a check reads of a document of known bytes: its
// offset and length, the bytes it must return and whether it must say
// eof.
type rangeProbe struct {
	name           string
	offset, length int64
	want           []byte
	eof            bool
}

// rangeProbes are the parts both ways of reading a part check (the read
// tool and HTTP Range): the first half (at most 4 KiB), and a tail asked
// past the end, which must be cut at the end and say eof. whole has at
// least 2 bytes.
func rangeProbes(prefix string, whole []byte) []rangeProbe {
	size := int64(len(whole))
	n, k := min(size/2, 4096), min(size/2, 16)
	return []rangeProbe{
		{prefix + ": range", 0, n, whole[:n], false},
		{prefix + ": tail", size - k, 2 * k, whole[size-k:], true},
	}
}

// listedType is the mimeType the listing gives path ("" when unknown);
// on the simulated server, the type its check file's URI declares.
func (c *checker) listedType(path string) string {
	if c.sim {
		return simToolType
	}
	for _, r := range c.listed {
		if r.URI == path {
			return r.MIMEType
		}
	}
	return ""
}

// toolWhole reads path from offset 0 without a length until eof.
func (c *checker) toolWhole(ctx context.Context, path string) (data []byte, calls int, contentType string, err error) {
	for calls < maxToolCalls && len(data) <= maxToolBytes {
		var off *int64
		if calls > 0 {
			o := int64(len(data))
			off = &o
		}
		ta, err := c.toolCall(ctx, path, off, nil)
		calls++
		switch {
		case err != nil:
			return nil, calls, "", err
		case ta.RPCError != nil:
			return nil, calls, "", fmt.Errorf("answered JSON-RPC error %d %q", ta.RPCError.Code, ta.RPCError.Message)
		case ta.IsError:
			return nil, calls, "", fmt.Errorf("failed with code %q: %s", ta.Code, ta.Message)
		}
		data = append(data, ta.Data...)
		contentType = ta.ContentType
		if ta.EOF {
			return data, calls, contentType, nil
		}
		if len(ta.Data) == 0 {
			return nil, calls, "", fmt.Errorf("empty bytes with eof false at offset %d: the file never ends", len(data))
		}
	}
	return nil, calls, "", fmt.Errorf("no eof after %d calls and %d bytes", calls, len(data))
}

// judgeRange compares a ranged answer with the bytes and eof it must have.
func judgeRange(ta client.ToolPart, err error, want []byte, wantEOF bool) (results.CheckStatus, string) {
	switch {
	case err != nil:
		return results.CheckFail, err.Error()
	case ta.RPCError != nil:
		return results.CheckFail, fmt.Sprintf("answered JSON-RPC error %d %q; want bytes", ta.RPCError.Code, ta.RPCError.Message)
	case ta.IsError:
		return results.CheckFail, fmt.Sprintf("failed with code %q (%s); want bytes, not an error", ta.Code, ta.Message)
	case len(ta.Data) != len(want):
		return results.CheckFail, fmt.Sprintf("%d bytes, want %d", len(ta.Data), len(want))
	case !bytes.Equal(ta.Data, want):
		return results.CheckFail, "the bytes differ from the whole file's at that offset"
	case ta.EOF != wantEOF:
		return results.CheckFail, fmt.Sprintf("eof %t, want %t (eof is true iff the bytes end at the file's last byte)", ta.EOF, wantEOF)
	}
	return results.CheckPass, fmt.Sprintf("%d bytes, eof %t", len(ta.Data), ta.EOF)
}

// toolFailure checks that reading path fails with one of the codes.
func (c *checker) toolFailure(ctx context.Context, name, path string, codes []string) {
	ta, err := c.toolCall(ctx, path, nil, nil)
	want := strings.Join(codes, " or ")
	switch {
	case err != nil:
		c.rep.add(name, results.CheckFail, path, err.Error())
	case ta.RPCError != nil:
		c.rep.add(name, results.CheckFail, path, fmt.Sprintf("answered JSON-RPC error %d %q; want a tool result with isError and code %s",
			ta.RPCError.Code, ta.RPCError.Message, want))
	case !ta.IsError:
		c.rep.add(name, results.CheckFail, path, fmt.Sprintf("succeeded with %d bytes; want an error %s", len(ta.Data), want))
	case !slices.Contains(codes, ta.Code):
		c.rep.add(name, results.CheckFail, path, fmt.Sprintf("failed with code %q (%s); want %s", ta.Code, ta.Message, want))
	default:
		c.rep.add(name, results.CheckPass, path, fmt.Sprintf("isError, code %s: %s", ta.Code, ta.Message))
	}
}

// toolCall calls the read tool once and decodes its answer (the client's
// decoding, the one a ranged read uses).
func (c *checker) toolCall(ctx context.Context, path string, offset, length *int64) (client.ToolPart, error) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	p, _, err := c.s.ReadTool(rctx, path, offset, length)
	return p, err
}
