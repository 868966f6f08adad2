package contract

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/results"
)

// Seed 004's read over plain HTTP (docs/check.md (HTTP documents)), for a
// range+http target: the raw bytes as the body, Content-Type equal to the
// listing's, Accept-Ranges: bytes and Content-Range for a range, eof by the
// last byte, 416 past the end, directory and symlink refused.
const (
	// Paths on the simulated server: the check's own text file (a type
	// other than the default, so that an echoed default cannot pass), a
	// folder, a symlink and a path that is no sim: URI at all.
	simHTTPFile    = "sim:///readbench-check/page.md?mime=text/markdown&size=10000"
	simHTTPType    = "text/markdown"
	simHTTPDir     = "sim:///readbench-check/folder?entries=3"
	simHTTPSymlink = "sim:///readbench-check/link.md?mime=text/markdown&symlink=true"
	simHTTPUnknown = "readbench-check/no-such-file-7f3a9c?size=nope"
)

// documents runs the HTTP rules in place of the MCP checks.
func (c *checker) documents(ctx context.Context, d *client.Documents) {
	file, dir, symlink, unknown, wantType := simHTTPFile, simHTTPDir, simHTTPSymlink, simHTTPUnknown, simHTTPType
	if !c.sim {
		file, dir, unknown = c.toolPaths()
		symlink, wantType = "", ""
	}
	if file == "" {
		c.rep.add("http: whole document", results.CheckSkip, "", "readbench cannot guess a document path on this server: give --read-path PATH (appended to the prefix)")
	} else {
		c.httpRanges(ctx, d, file, wantType)
	}
	if dir != "" {
		c.httpRefused(ctx, d, "http: directory", dir, "invalid_path")
	}
	if symlink != "" {
		c.httpRefused(ctx, d, "http: symlink", symlink, "invalid_path")
	} else {
		c.rep.add("http: symlink", results.CheckSkip, "", "readbench cannot know a symlink's path on a server other than the simulated one")
	}
	c.httpRefused(ctx, d, "http: unknown path", unknown, "not_found")
}

// get fetches one answer of the check, its body kept.
func (c *checker) get(ctx context.Context, d *client.Documents, path string, offset, length int64) (*client.DocAnswer, []byte, error) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	var body bytes.Buffer
	a, err := d.Get(rctx, path, offset, length, &body)
	return a, body.Bytes(), err
}

// httpRanges reads the whole document, then each range rule against it.
func (c *checker) httpRanges(ctx context.Context, d *client.Documents, path, wantType string) {
	a, whole, err := c.get(ctx, d, path, 0, -1)
	switch {
	case err != nil:
		c.rep.add("http: whole document", results.CheckFail, path, err.Error())
		return
	case a.Status != http.StatusOK:
		c.rep.add("http: whole document", results.CheckFail, path, fmt.Sprintf("HTTP %d %s %s; want 200 and the bytes", a.Status, a.Code, a.Message))
		return
	case a.Size >= 0 && a.Size != int64(len(whole)): // -1: no Content-Length (chunked), which HTTP allows
		c.rep.add("http: whole document", results.CheckFail, path, fmt.Sprintf("Content-Length %d, %d bytes came", a.Size, len(whole)))
		return
	}
	c.rep.add("http: whole document", results.CheckPass, path, fmt.Sprintf("200, %d bytes, Content-Type %q", len(whole), a.ContentType))
	switch {
	case wantType == "":
		c.rep.add("http: content type", results.CheckSkip, path, "plain HTTP has no listing here to compare with: only the ranges' types are compared with the whole answer's")
	case a.ContentType != wantType:
		c.rep.add("http: content type", results.CheckFail, path, fmt.Sprintf("Content-Type %q, the listing says %q", a.ContentType, wantType))
	default:
		c.rep.add("http: content type", results.CheckPass, path, fmt.Sprintf("%q, as the listing says", a.ContentType))
	}
	c.httpHead(ctx, d, path, int64(len(whole)), a.ContentType)
	size := int64(len(whole))
	if size < 2 {
		c.rep.add("http: range", results.CheckSkip, path, fmt.Sprintf("the document has %d bytes: too small to read a part of", size))
		return
	}
	for _, tc := range rangeProbes("http", whole) {
		ra, got, err := c.get(ctx, d, path, tc.offset, tc.length)
		st, detail := judgeHTTPRange(ra, got, err, tc.offset, tc.want, size, tc.eof, a.ContentType)
		c.rep.add(tc.name, st, path, fmt.Sprintf("bytes=%d-%d of %d: %s", tc.offset, tc.offset+tc.length-1, size, detail))
	}
	pa, _, err := c.get(ctx, d, path, size+1000, 16)
	want := fmt.Sprintf("bytes */%d", size)
	switch {
	case err != nil:
		c.rep.add("http: past the end", results.CheckFail, path, err.Error())
	case pa.Status != http.StatusRequestedRangeNotSatisfiable || pa.ContentRange != want:
		c.rep.add("http: past the end", results.CheckFail, path, fmt.Sprintf("HTTP %d, Content-Range %q; want 416 and %q", pa.Status, pa.ContentRange, want))
	default:
		c.rep.add("http: past the end", results.CheckPass, path, fmt.Sprintf("416, Content-Range %q", pa.ContentRange))
	}
}

// judgeHTTPRange checks a 206: Content-Range arithmetic (first byte asked,
// last = first + body - 1, size the document's), the bytes, eof by the
// last byte, Accept-Ranges and the Content-Type.
func judgeHTTPRange(a *client.DocAnswer, got []byte, err error, offset int64, want []byte, size int64, wantEOF bool, wantType string) (results.CheckStatus, string) {
	wantRange := fmt.Sprintf("bytes %d-%d/%d", offset, offset+int64(len(want))-1, size)
	switch {
	case err != nil:
		return results.CheckFail, err.Error()
	case a.Status != http.StatusPartialContent:
		return results.CheckFail, fmt.Sprintf("HTTP %d; want 206 Partial Content", a.Status)
	case a.ContentRange != wantRange || a.Start != offset || a.End-a.Start+1 != int64(len(got)) || a.Size != size:
		return results.CheckFail, fmt.Sprintf("Content-Range %q with %d bytes; want %q", a.ContentRange, len(got), wantRange)
	case !bytes.Equal(got, want):
		return results.CheckFail, fmt.Sprintf("%d bytes that differ from the whole document's at that offset", len(got))
	case a.EOF() != wantEOF:
		return results.CheckFail, fmt.Sprintf("eof %t by Content-Range, want %t", a.EOF(), wantEOF)
	case !strings.EqualFold(a.AcceptRanges, "bytes"):
		return results.CheckFail, fmt.Sprintf("Accept-Ranges %q; a range answer must say bytes", a.AcceptRanges)
	case a.ContentType != wantType:
		return results.CheckFail, fmt.Sprintf("Content-Type %q, the whole document's is %q", a.ContentType, wantType)
	}
	return results.CheckPass, fmt.Sprintf("206, Content-Range %q, eof %t", a.ContentRange, a.EOF())
}

// httpHead checks that HEAD answers the GET's headers without a body.
func (c *checker) httpHead(ctx context.Context, d *client.Documents, path string, size int64, ct string) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	a, err := d.Head(rctx, path)
	switch {
	case err != nil:
		c.rep.add("http: head", results.CheckFail, path, err.Error())
	case a.Status != http.StatusOK || a.Size != size || a.ContentType != ct || a.BodyBytes != 0:
		c.rep.add("http: head", results.CheckFail, path, fmt.Sprintf("HTTP %d, Content-Length %d, Content-Type %q, %d body bytes; want 200, %d, %q, none",
			a.Status, a.Size, a.ContentType, a.BodyBytes, size, ct))
	default:
		c.rep.add("http: head", results.CheckPass, path, fmt.Sprintf("200, Content-Length %d, no body", size))
	}
}

// httpRefused checks that path is refused: a 4xx (404 exactly for
// not_found; never 404 for invalid_path, which says the path is there but
// is not a file), and when the body is the seed's JSON {code, message},
// that code. HTTP does not fix how an error body looks, so a 4xx without
// one passes, and the detail says so.
func (c *checker) httpRefused(ctx context.Context, d *client.Documents, name, path, code string) {
	a, _, err := c.get(ctx, d, path, 0, -1)
	switch {
	case err != nil:
		c.rep.add(name, results.CheckFail, path, err.Error())
	case a.Status < 400 || a.Status >= 500:
		c.rep.add(name, results.CheckFail, path, fmt.Sprintf("HTTP %d with %d bytes; want a 4xx refusal (%s)", a.Status, a.BodyBytes, code))
	case code == "not_found" && a.Status != http.StatusNotFound:
		c.rep.add(name, results.CheckFail, path, fmt.Sprintf("HTTP %d; want 404 for a path that does not exist", a.Status))
	case code == "invalid_path" && a.Status == http.StatusNotFound:
		c.rep.add(name, results.CheckFail, path, "HTTP 404 says the path does not exist; it exists and is not a file: want a 4xx with code invalid_path")
	case a.Code != "" && a.Code != code:
		c.rep.add(name, results.CheckFail, path, fmt.Sprintf("HTTP %d, code %q; want %s", a.Status, a.Code, code))
	case a.Code == "":
		c.rep.add(name, results.CheckPass, path, fmt.Sprintf("HTTP %d (the body is no JSON {code}: %s not confirmed)", a.Status, code))
	default:
		c.rep.add(name, results.CheckPass, path, fmt.Sprintf("HTTP %d, code %s", a.Status, a.Code))
	}
}
