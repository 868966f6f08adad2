package contract

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/targets"
)

// rowCase is one misbehaving server and what the check must say of it:
// exactly the rows in fail fail, and each row in want has that status
// (every row of that name) with detail in its detail when given.
type rowCase struct {
	name   string
	serve  func(t *testing.T) string // the server's endpoint URL
	opts   Options
	fail   []string
	want   map[string]results.CheckStatus
	detail map[string]string
}

// TestCheckRowsFail: each server breaks one rule of docs/check.md, and the
// check fails exactly the row of that rule (or skips the rows that cannot
// tell), with a detail that says what was seen. The servers are the
// official Go SDK's, made to misbehave through its handlers and
// middleware; where the SDK cannot produce the fault on the wire, a
// minimal JSON-RPC server (rpcServer).
func TestCheckRowsFail(t *testing.T) {
	const page = "docs://guide/page.md"
	cases := []rowCase{
		{name: "server info without a version",
			serve: sdkRows(&mcp.Implementation{Name: "nameless"}, nil, oneDoc(page, nil)),
			fail:  []string{"server info"}, detail: map[string]string{"server info": `version ""`}},
		{name: "no capabilities object",
			serve:  rpcRows(rpcServer{caps: nil, read: readOK}),
			want:   map[string]results.CheckStatus{"capabilities": results.CheckSkip, "resources/list": results.CheckPass, "read": results.CheckPass},
			detail: map[string]string{"capabilities": "no capabilities object"}},
		{name: "listing error",
			serve: sdkRows(nil, failMethod(protocol.MethodResourcesList, &jsonrpc.Error{Code: -32603, Message: "index offline"}), oneDoc(page, nil)),
			fail:  []string{"resources/list"}, want: map[string]results.CheckStatus{"read": results.CheckSkip},
			detail: map[string]string{"resources/list": "index offline", "read": "nothing listed"}},
		{name: "repeated cursor",
			serve: rpcRows(rpcServer{caps: json.RawMessage(`{"resources":{}}`), read: readOK, cursor: "again"}),
			fail:  []string{"resources/list"}, detail: map[string]string{"resources/list": `repeats the cursor "again"`}},
		{name: "empty listing",
			serve: sdkRows(nil, nil, func(*mcp.Server) {}),
			fail:  []string{"resources/list"}, want: map[string]results.CheckStatus{"read": results.CheckSkip},
			detail: map[string]string{"resources/list": "lists nothing", "read": "nothing listed"}},
		{name: "150 pages",
			serve: sdkRows(nil, nil, manyDocs(150)), opts: Options{Sample: 2},
			want:   map[string]results.CheckStatus{"resources/list": results.CheckPass},
			detail: map[string]string{"resources/list": "100 resources in 100 pages (stopped after 100 pages)"}},
		{name: "read error",
			serve: sdkRows(nil, nil, oneDoc(page, func(context.Context) error { return &jsonrpc.Error{Code: -32603, Message: "disk on fire"} })),
			fail:  []string{"read"}, detail: map[string]string{"read": `a listed resource answered error -32603 "disk on fire"`}},
		{name: "read no answer",
			serve: sdkRows(nil, nil, oneDoc(page, func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })),
			opts:  Options{Timeout: 300 * time.Millisecond},
			fail:  []string{"read"}, detail: map[string]string{"read": "deadline"}},
		{name: "legacy -32602 not worded as missing",
			serve: sdkRows(nil, failMethod(protocol.MethodResourcesRead, &jsonrpc.Error{Code: -32602, Message: "uri is not acceptable"}), oneDoc(page, nil)),
			fail:  []string{"not-found error", "not-found shaped"},
			detail: map[string]string{"not-found error": `error -32602 "uri is not acceptable"; a ` + protocol.LatestLegacy + ` server answers -32002; a run counts this answer invalid_params`,
				"not-found shaped": `error -32602 "uri is not acceptable"; a ` + protocol.LatestLegacy + ` server answers -32002`}},
		{name: "2026-07-28 input_required and -32002",
			serve: rpcRows(rpcServer{modern: true, caps: json.RawMessage(`{"resources":{}}`), read: readInputRequired}),
			fail:  []string{"not-found error", "not-found shaped"}, want: map[string]results.CheckStatus{"handshake": results.CheckPass, "read": results.CheckSkip},
			detail: map[string]string{"read": "input_required", "not-found error": "a 2026-07-28 server answers -32602 (-32002 is retired)",
				"not-found shaped": "a 2026-07-28 server answers -32602 (-32002 is retired)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runRowCase(t, tc) })
	}
}

// TestCheckReadToolFails: a read tool that breaks one of its rules fails
// exactly that row. The tool is the Go SDK's, on a server that advertises
// sim: URIs (so the check knows the file's type and a symlink's path).
func TestCheckReadToolFails(t *testing.T) {
	cases := []struct{ flaw, fail, detail string }{
		{"", "", ""},
		{"whole-internal", "read tool: whole file", `failed with code "internal"`},
		{"type", "read tool: content type", `content_type "text/plain", the listing says "application/octet-stream"`},
		{"dir-ok", "read tool: directory", "succeeded with"},
		{"symlink-ok", "read tool: symlink", "succeeded with"},
		{"unknown-internal", "read tool: unknown path", `failed with code "internal"`},
	}
	for _, c := range cases {
		t.Run("flaw="+c.flaw, func(t *testing.T) {
			tc := rowCase{serve: sdkRows(nil, nil, readTool(c.flaw), true), want: map[string]results.CheckStatus{"read tool: whole file": results.CheckPass}}
			if c.fail != "" {
				tc.fail, tc.want, tc.detail = []string{c.fail}, map[string]results.CheckStatus{c.fail: results.CheckFail}, map[string]string{c.fail: c.detail}
			}
			runRowCase(t, tc)
		})
	}
}

func runRowCase(t *testing.T, tc rowCase) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	o := tc.opts
	o.Target = targets.Target{Kind: targets.HTTP, Address: tc.serve(t)}
	rep, err := Check(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, c := range rep.Checks {
		t.Logf("%-24s %-4s %s %s", c.Name, c.Status, c.URI, c.Detail)
		if c.Status == results.CheckFail && !slices.Contains(failed, c.Name) {
			failed = append(failed, c.Name)
		}
	}
	if !slices.Equal(failed, tc.fail) {
		t.Errorf("failed %v, want %v", failed, tc.fail)
	}
	for name, st := range tc.want {
		n := 0
		for _, c := range rep.Checks {
			if c.Name == name {
				n++
				if c.Status != st {
					t.Errorf("%s: %s, want %s", name, c.Status, st)
				}
			}
		}
		if n == 0 {
			t.Errorf("no %q row", name)
		}
	}
	for name, d := range tc.detail {
		if !slices.ContainsFunc(rep.Checks, func(c results.Check) bool { return c.Name == name && strings.Contains(c.Detail, d) }) {
			t.Errorf("%s: no row says %q", name, d)
		}
	}
}

// sdkRows serves the Go SDK's server (stateful Streamable HTTP, so the
// handshake era) named impl (the peer's name when nil), with mw as its
// receiving middleware and add giving it its resources and tools; sim
// true makes it advertise that it serves sim: URIs.
func sdkRows(impl *mcp.Implementation, mw mcp.Middleware, add func(*mcp.Server), sim ...bool) func(t *testing.T) string {
	return func(t *testing.T) string {
		if impl == nil {
			impl = &mcp.Implementation{Name: peertest.Name, Version: peertest.Version}
		}
		o := &mcp.ServerOptions{HasResources: true, PageSize: 1}
		if len(sim) > 0 && sim[0] {
			o.Capabilities = &mcp.ServerCapabilities{Experimental: map[string]any{protocol.CapabilitySimURIs: true}}
		}
		s := mcp.NewServer(impl, o)
		if mw != nil {
			s.AddReceivingMiddleware(mw)
		}
		add(s)
		return peertest.ServeLocal(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)).URL + "/mcp"
	}
}

// failMethod answers every request of method with e, except a read of a
// listed resource (docs://guide/page…), which the server serves.
func failMethod(method string, e error) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if m != method {
				return next(ctx, m, req)
			}
			if r, ok := req.(*mcp.ReadResourceRequest); ok && strings.HasPrefix(r.Params.URI, "docs://guide/page") {
				return next(ctx, m, req)
			}
			return nil, e
		}
	}
}

// oneDoc lists uri, a small markdown page; fail, when set, decides the
// read's error instead.
func oneDoc(uri string, fail func(context.Context) error) func(*mcp.Server) {
	return func(s *mcp.Server) {
		s.AddResource(&mcp.Resource{URI: uri, MIMEType: "text/markdown", Name: uri}, func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			if fail != nil {
				if err := fail(ctx); err != nil {
					return nil, err
				}
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: "# Page\n"}}}, nil
		})
	}
}

// manyDocs lists n pages, one resource a page (the server's PageSize is 1).
func manyDocs(n int) func(*mcp.Server) {
	return func(s *mcp.Server) {
		for i := range n {
			oneDoc(fmt.Sprintf("docs://guide/page-%03d.md", i), nil)(s)
		}
	}
}

// readTool gives the server a ranged read tool over the sim: paths the
// check uses (simToolFile, simToolDir, simToolSymlink) with one flaw, and
// declares sim: URIs so that the check uses them.
func readTool(flaw string) func(*mcp.Server) {
	data := peertest.DocBytes(10000)
	return func(s *mcp.Server) {
		oneDoc("docs://guide/page.md", nil)(s)
		schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer"},"length":{"type":"integer"}},"required":["path"]}`)
		s.AddTool(&mcp.Tool{Name: "read", InputSchema: schema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct {
				Path           string
				Offset, Length *int64
			}
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			refuse := func(code string) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"code": code, "message": code + " here"},
					Content: []mcp.Content{&mcp.TextContent{Text: code}}}, nil
			}
			switch {
			case a.Path == simToolDir && flaw != "dir-ok", a.Path == simToolSymlink && flaw != "symlink-ok":
				return refuse("invalid_path")
			case a.Path == simToolFile && flaw == "whole-internal", a.Path == simToolUnknown && flaw == "unknown-internal":
				return refuse("internal")
			case a.Path != simToolFile && a.Path != simToolDir && a.Path != simToolSymlink:
				return refuse("not_found")
			}
			off, n := int64(0), int64(len(data))
			if a.Offset != nil {
				off = min(*a.Offset, n)
			}
			end := n
			if a.Length != nil {
				end = min(off+*a.Length, n)
			}
			ct := simToolType
			if flaw == "type" {
				ct = "text/plain"
			}
			return &mcp.CallToolResult{StructuredContent: map[string]any{"bytes": base64.StdEncoding.EncodeToString(data[off:end]), "content_type": ct, "eof": end == n},
				Content: []mcp.Content{&mcp.TextContent{Text: "bytes"}}}, nil
		})
	}
}

// rpcServer is a minimal JSON-RPC server over plain HTTP POST (Streamable
// HTTP answering application/json, no session), for the wire faults the
// SDK cannot produce: a handshake without capabilities, a cursor that
// repeats, a 2026-07-28 server (server/discover) that answers the retired
// -32002. It lists docs://guide/page.md, answers a read of a string
// without "://" -32602 and any other read -32002.
type rpcServer struct {
	modern bool
	caps   json.RawMessage // nil: the handshake carries no capabilities object
	cursor string          // every listing page points to this cursor
	read   func(uri string) any
}

func readOK(uri string) any {
	return map[string]any{"contents": []any{map[string]any{"uri": uri, "mimeType": "text/markdown", "text": "# Page\n"}}}
}

func readInputRequired(string) any {
	return map[string]any{"resultType": protocol.ResultInputRequired, "inputRequests": map[string]any{}}
}

func rpcRows(s rpcServer) func(t *testing.T) string {
	return func(t *testing.T) string { return peertest.ServeLocal(t, &s).URL + "/mcp" }
}

func (s *rpcServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if req.ID == nil {
		w.WriteHeader(http.StatusAccepted) // a notification
		return
	}
	info := map[string]string{"name": "rpc-rows", "version": "0.1.0"}
	var result any
	rpcErr := s.answer(req.Method, req.Params.URI, info, &result)
	msg := map[string]any{"jsonrpc": "2.0", "id": req.ID}
	if rpcErr != nil {
		msg["error"] = rpcErr
	} else {
		msg["result"] = result
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(msg)
}

func (s *rpcServer) answer(method, uri string, info map[string]string, result *any) *protocol.Error {
	const listed = "docs://guide/page.md"
	res := map[string]any{}
	if s.caps != nil {
		res["capabilities"] = s.caps
	}
	switch {
	case method == protocol.MethodDiscover && s.modern:
		res["supportedVersions"] = []string{protocol.V20260728}
		res["_meta"] = map[string]any{protocol.MetaServerInfo: info}
	case method == protocol.MethodInitialize && !s.modern:
		res["protocolVersion"], res["serverInfo"] = protocol.LatestLegacy, info
	case method == protocol.MethodResourcesList:
		res = map[string]any{"resources": []any{map[string]string{"uri": listed, "name": "page", "mimeType": "text/markdown"}}}
		if s.cursor != "" {
			res["nextCursor"] = s.cursor
		}
	case method == protocol.MethodResourcesRead && !strings.Contains(uri, "://"):
		return &protocol.Error{Code: protocol.CodeInvalidParams, Message: "uri is not a URI"}
	case method == protocol.MethodResourcesRead && uri == listed:
		*result = s.read(uri)
		return nil
	case method == protocol.MethodResourcesRead:
		return &protocol.Error{Code: protocol.CodeResourceNotFound, Message: "Resource not found"}
	default:
		return &protocol.Error{Code: protocol.CodeMethodNotFound, Message: "Method not found"}
	}
	*result = res
	return nil
}
