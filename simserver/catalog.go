package simserver

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// Resource is one entry of the catalog resources/list returns.
type Resource struct {
	URI      string `json:"uri"`
	Name     string `json:"name"`
	Title    string `json:"title,omitempty"`
	MIMEType string `json:"mimeType"`
	Size     int64  `json:"size"`
}

// catalogClass is one kind of document of the catalog: a docs server's mix
// of pages, screenshots, data files and logs, with a typical size.
type catalogClass struct {
	ext, mime string
	typical   int64
}

func catalogClasses() []catalogClass {
	return []catalogClass{
		{"md", "text/markdown", 8 << 10},
		{"png", "image/png", 1834208},
		{"json", "application/json", 4 << 10},
		{"md", "text/markdown", 24 << 10},
		{"pdf", "application/pdf", 256 << 10},
		{"txt", "text/plain", 2 << 10},
		{"jpg", "image/jpeg", 300 << 10},
		{"csv", "text/csv", 16 << 10},
		{"html", "text/html", 12 << 10},
		{"log", "text/plain", 1 << 20},
		{"yaml", "application/yaml", 2 << 10},
		{"gz", "application/gzip", 64 << 10},
	}
}

// Catalog returns the n resources of the catalog: a deterministic mix of
// MIME types, with sizes spread from a quarter to four times each class's
// typical size, as sim: URIs that read back exactly what they list. It is
// what readbench init discovers on the embedded target.
func Catalog(n int) []Resource {
	classes := catalogClasses()
	out := make([]Resource, n)
	for i := range out {
		c := classes[i%len(classes)]
		lo, hi := c.typical/4, c.typical*4
		size := lo + int64(mix(uint64(i))%uint64(hi-lo))
		name := fmt.Sprintf("doc-%04d.%s", i, c.ext)
		out[i] = Resource{
			URI:      fmt.Sprintf("sim:///catalog/%s?mime=%s&size=%d", name, c.mime, size),
			Name:     name,
			Title:    fmt.Sprintf("Catalog document %d (%s)", i, c.mime),
			MIMEType: c.mime,
			Size:     size,
		}
	}
	return out
}

const cursorPrefix = "offset:"

// encodeCursor makes the opaque nextCursor for a page starting at off.
func encodeCursor(off int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(off)))
}

func decodeCursor(cur string, n int) (int, error) {
	if cur == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cur)
	if err != nil {
		return 0, fmt.Errorf("invalid cursor: %w", err)
	}
	off, err := strconv.Atoi(strings.TrimPrefix(string(b), cursorPrefix))
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) || off < 0 || off > n {
		return 0, fmt.Errorf("invalid cursor %q", cur)
	}
	return off, nil
}

// listResources answers resources/list, one page per request.
func (s *Server) listResources(c *call) answer {
	all := Catalog(s.opts.CatalogSize)
	off, err := decodeCursor(c.p.Cursor, len(all))
	if err != nil {
		return s.fail(c.id, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: "+err.Error(), nil))
	}
	end := min(off+s.opts.PageSize, len(all))
	page := map[string]any{"resources": all[off:end]}
	if end < len(all) {
		page["nextCursor"] = encodeCursor(end)
	}
	return s.listResult(c, page)
}

// listTemplates answers resources/templates/list: how to name any sim:
// resource.
func (s *Server) listTemplates(c *call) answer {
	if _, err := decodeCursor(c.p.Cursor, 0); err != nil {
		return s.fail(c.id, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: "+err.Error(), nil))
	}
	return s.listResult(c, map[string]any{"resourceTemplates": []map[string]string{
		{
			"uriTemplate": "sim:///{name}?mime={mime}&size={size}",
			"name":        "sim",
			"title":       "Simulated resource",
			"description": "Any resource: size is the decoded byte count; the content is deterministic per URI.",
		},
		{
			"uriTemplate": "sim:///{name}?mime={mime}&size={size}&delay={delay}",
			"name":        "sim-delayed",
			"title":       "Simulated resource with service time",
			"description": "delay is a duration (20ms) or a distribution (lognormal(12ms,40ms)), sampled per read.",
		},
	}})
}

// listResult answers a list method; 2026-07-28 list results carry the
// cache hints too (immediately stale, public).
func (s *Server) listResult(c *call, page map[string]any) answer {
	if c.modern {
		page["ttlMs"] = 0
		page["cacheScope"] = "public"
	}
	body, err := marshal(page)
	if err != nil {
		return s.fail(c.id, protocol.NewError(protocol.CodeInternal, "Internal error: "+err.Error(), nil))
	}
	return s.result(c, body)
}
