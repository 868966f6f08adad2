package contract

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// TestJudgeListedSize: a listed size passes only when it is the decoded
// byte count read, and the detail names both numbers.
func TestJudgeListedSize(t *testing.T) {
	cases := []struct {
		listed, read int64
		want         results.CheckStatus
		detail       string
	}{
		{1024, 1024, results.CheckPass, "listed size 1024, read 1024 decoded bytes"},
		{100, 5000, results.CheckFail, "listed size 100, read 5000 decoded bytes (1 entry): a host that plans from the listing (readbench init sizes a class from it) is under by 4900 bytes"},
		{5000, 100, results.CheckFail, "is over by 4900 bytes"},
		{0, 0, results.CheckPass, "listed size 0, read 0"},
	}
	for _, c := range cases {
		st, d := judgeListedSize(c.listed, c.read, 1)
		if st != c.want || !strings.Contains(d, c.detail) {
			t.Errorf("listed %d, read %d: %s %q, want %s with %q", c.listed, c.read, st, d, c.want, c.detail)
		}
	}
}

// TestListedSizeOfListing: a size that is absent, null or not a whole
// number is no size (no row), never 0.
func TestListedSizeOfListing(t *testing.T) {
	for raw, want := range map[string]int64{"": -1, "null": -1, "100": 100, "0": 0, "-1": -1, "1.5": -1, `"100"`: -1, "5e3": 5000} {
		if got := listedSize([]byte(raw)); got != want {
			t.Errorf("listedSize(%q) = %d, want %d", raw, got, want)
		}
	}
}

// TestShapedNotFoundURIs: the probe changes the segment that names the
// resource: the last one that differs between listed URIs of one shape
// (server-postgres's postgres://h/TABLE/schema), else the last.
func TestShapedNotFoundURIs(t *testing.T) {
	cases := []struct {
		name   string
		listed []string
		want   []string
	}{
		{"tables", []string{"db://tables/users", "db://tables/orders"}, []string{"db://tables/readbench-no-such-7f3a9c"}},
		{"postgres", []string{"postgres://u@h/users/schema", "postgres://u@h/orders/schema"}, []string{"postgres://u@h/readbench-no-such-7f3a9c/schema"}},
		{"one listed, extension kept", []string{"docs://guides/intro.md"}, []string{"docs://guides/readbench-no-such-7f3a9c.md"}},
		{"query dropped", []string{"file:///srv/a.txt?rev=2"}, []string{"file:///srv/readbench-no-such-7f3a9c.txt"}},
		{"no segment to change", []string{"file:///dir/", "file:///", "postgres://u@h", "docs://h:8080", "urn:isbn:123", "not a uri"}, nil},
		{"authority alone", []string{"videos://42", "videos://43/"}, []string{"videos://readbench-no-such-7f3a9c", "videos://readbench-no-such-7f3a9c/"}},
		{"one per shape", []string{"docs://guides/intro", "file:///dir/", "db://tables/users", "db://tables/orders"},
			[]string{"docs://guides/readbench-no-such-7f3a9c", "db://tables/readbench-no-such-7f3a9c"}},
		{"bounded", []string{"a://h/1", "b://h/1", "c://h/1"}, []string{"a://h/readbench-no-such-7f3a9c", "b://h/readbench-no-such-7f3a9c"}},
	}
	for _, c := range cases {
		if got := shapedNotFoundURIs(c.listed, 2); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestJudgeShaped: a shaped probe's answer is held to the not-found rule
// of its era: an ok answer fails for the listing's shape and is a skip
// for a template (its instances may all exist); an error passes only with
// the era's code (or a legacy -32602 worded as missing), and a -32603
// fails naming what a run counts it as (internal).
func TestJudgeShaped(t *testing.T) {
	legacy := notFoundRule{version: "2025-11-25", served: 1}
	modern := notFoundRule{modern: true, version: "2026-07-28", served: 1}
	cases := []struct {
		rule   notFoundRule
		p      probe
		want   results.CheckStatus
		detail string
	}{
		{legacy, probe{got: "answered ok (1 entry, 2 bytes)", outcome: stats.OK}, results.CheckFail, "answered ok (1 entry, 2 bytes) for a URI of the listing's shape that cannot exist"},
		{legacy, probe{got: "answered ok (1 entry, 2 bytes)", outcome: stats.OK, template: "echo://{text}"}, results.CheckSkip, "every instance of this template may exist"},
		{legacy, probe{code: -32002, got: `error -32002 "Resource not found"`, outcome: stats.NotFound}, results.CheckPass, `error -32002`},
		{modern, probe{code: -32602, got: `error -32602 "no such table"`, outcome: stats.NotFound}, results.CheckPass, `error -32602`},
		{legacy, probe{code: -32602, got: `error -32602 "Resource not found"`, outcome: stats.NotFound}, results.CheckPass, "as the SDKs answer in every era"},
		{modern, probe{code: -32002, got: `error -32002 "Resource not found"`, outcome: stats.NotFound}, results.CheckFail, "-32002 is retired"},
		{legacy, probe{code: -32603, got: `error -32603 "Unknown resource"`, outcome: stats.Internal}, results.CheckFail,
			`error -32603 "Unknown resource"; a 2025-11-25 server answers -32002; a run counts this answer internal, not not_found`},
		{modern, probe{code: -32603, got: `error -32603 "Table t not found"`, outcome: stats.Internal}, results.CheckFail, "a run counts this answer internal"},
		{legacy, probe{code: -32601, got: `error -32601 "Resource not found: x"`, outcome: stats.MethodNotFound}, results.CheckFail, misusedCode},
		{legacy, probe{failed: "context deadline exceeded"}, results.CheckFail, "context deadline exceeded"},
		{legacy, probe{got: "answered input_required", outcome: stats.InputRequired}, results.CheckSkip, "answered input_required"},
		{legacy, probe{got: "answered neither contents nor an error (x)", outcome: stats.Protocol}, results.CheckFail, "answered neither"},
	}
	for _, c := range cases {
		st, d := c.rule.shaped(c.p)
		if st != c.want || !strings.Contains(d, c.detail) {
			t.Errorf("%+v: %s %q, want %s with %q", c.p, st, d, c.want, c.detail)
		}
	}
}

// TestMissingInstance: every variable of a template is filled with a
// name that cannot exist, wherever it stands (the authority too).
func TestMissingInstance(t *testing.T) {
	for tmpl, want := range map[string]string{
		"videos://{id}":                "videos://readbench-no-such-7f3a9c",
		"sqlite://main/{table}/schema": "sqlite://main/readbench-no-such-7f3a9c/schema",
		"docs://files/{path}.json":     "docs://files/readbench-no-such-7f3a9c.json",
		"file:///{+path}":              "file:///readbench-no-such-7f3a9c",
		"db://{db}/tables/{table}":     "db://readbench-no-such-7f3a9c/tables/readbench-no-such-7f3a9c",
		"docs://static":                "",
		"search://q{?query}":           "",
	} {
		if got := missingInstance(tmpl); got != want {
			t.Errorf("missingInstance(%q) = %q, want %q", tmpl, got, want)
		}
	}
}

// TestJudgeTemplateRead: an instance of a listed template must read.
func TestJudgeTemplateRead(t *testing.T) {
	cases := []struct {
		name   string
		a      *client.Answer
		err    error
		want   results.CheckStatus
		detail string
	}{
		{"ok", &client.Answer{Answered: true, Outcome: stats.OK, Entries: 1, ByteCounts: stats.ByteCounts{DiskBytes: 9}}, nil, results.CheckPass, "1 entry, 9 bytes"},
		{"-32603", &client.Answer{Answered: true, Outcome: stats.Internal, Code: -32603, Reason: "Unknown resource: docs://files/readme.md"}, nil, results.CheckFail,
			`error -32603 "Unknown resource: docs://files/readme.md": the instance of a listed template could not be read`},
		{"no answer", &client.Answer{Detail: "broken pipe"}, nil, results.CheckFail, "broken pipe"},
		{"error", nil, errors.New("closed"), results.CheckFail, "closed"},
		{"unusable", &client.Answer{Answered: true, Outcome: stats.Protocol, Reason: "empty contents"}, nil, results.CheckFail, "unusable answer: empty contents"},
		{"input_required", &client.Answer{Answered: true, Outcome: stats.InputRequired}, nil, results.CheckSkip, "input_required"},
	}
	for _, c := range cases {
		st, d := judgeTemplateRead(c.a, c.err)
		if st != c.want || !strings.Contains(d, c.detail) {
			t.Errorf("%s: %s %q, want %s with %q", c.name, st, d, c.want, c.detail)
		}
	}
}

// TestCheckListedRows: over the Go SDK's server, each new row fails for
// what the listing promised and the reads contradict, and passes where
// they agree; each says what it read.
func TestCheckListedRows(t *testing.T) {
	text := strings.Repeat("x", 5000)
	doc := func(uri, body string, size int64) func(*mcp.Server) {
		return func(s *mcp.Server) {
			s.AddResource(&mcp.Resource{URI: uri, MIMEType: "text/markdown", Name: uri, Size: size}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: body}}}, nil
			})
		}
	}
	tmpl := func(uriTemplate string, read func(uri string) (*mcp.ReadResourceResult, error)) func(*mcp.Server) {
		return func(s *mcp.Server) {
			s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: uriTemplate, Name: uriTemplate, MIMEType: "application/json"},
				func(_ context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					return read(r.Params.URI)
				})
		}
	}
	emptyTable := func(uri string) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: "[]"}}}, nil
	}
	both := func(adds ...func(*mcp.Server)) func(*mcp.Server) {
		return func(s *mcp.Server) {
			for _, a := range adds {
				a(s)
			}
		}
	}
	cases := []rowCase{
		{name: "listed size contradicted",
			serve:  sdkRows(nil, nil, doc("docs://guides/intro.md", text, 100)),
			fail:   []string{"listed size"},
			detail: map[string]string{"listed size": "listed size 100, read 5000 decoded bytes"}},
		{name: "listed size kept",
			serve: sdkRows(nil, nil, doc("docs://guides/intro.md", text, 5000)),
			want:  map[string]results.CheckStatus{"listed size": results.CheckPass, "template read": results.CheckNA, "not-found shaped": results.CheckPass}},
		{name: "no listed size",
			serve:  sdkRows(nil, nil, doc("docs://guides/intro.md", text, 0)),
			want:   map[string]results.CheckStatus{"listed size": results.CheckSkip},
			detail: map[string]string{"listed size": "none of the 1 sampled resources lists a size"}},
		{name: "template instance fails",
			serve: sdkRows(nil, nil, both(doc("docs://files/index.md", "# files\n", 0), tmpl("docs://files/{path}.json", func(string) (*mcp.ReadResourceResult, error) {
				return nil, &jsonrpc.Error{Code: -32603, Message: "Unknown resource"}
			}))),
			opts: Options{TemplateValues: map[string]string{"path": "readme"}},
			// The template answers a missing instance -32603 too: a host
			// gets internal, and the generic probe's -32602 (the SDK's
			// router) does not pass alone.
			fail: []string{"template read", "not-found error", "not-found shaped"},
			detail: map[string]string{"template read": `read docs://files/readme.json (path="readme" from --template-value): error -32603 "Unknown resource"`,
				"not-found shaped": `error -32603 "Unknown resource"; a 2025-11-25 server answers -32002; a run counts this answer internal`,
				"not-found error":  `but a missing resource of the server's own shape gets error -32603 "Unknown resource" (docs://files/readbench-no-such-7f3a9c.json)`}},
		{name: "template without a value",
			serve:  sdkRows(nil, nil, both(doc("docs://files/index.md", "# files\n", 0), tmpl("docs://files/{path}.json", emptyTable))),
			want:   map[string]results.CheckStatus{"template read": results.CheckSkip},
			detail: map[string]string{"template read": "no value for {path}: no listed resource is an instance and the server declares no completions; give --template-value path=VALUE"}},
		{name: "table template answers ok for a missing table",
			serve: sdkRows(nil, nil, both(doc("db://tables/users", `[{"column_name":"id"}]`, 0), doc("db://tables/orders", `[{"column_name":"id"}]`, 0), tmpl("db://tables/{name}", emptyTable))),
			fail:  []string{"not-found error", "not-found shaped"},
			want:  map[string]results.CheckStatus{"template read": results.CheckPass},
			detail: map[string]string{"template read": "read db://tables/orders (a listed resource of the template)",
				"not-found shaped": "answered ok (1 entry, 2 bytes) for a URI of the listing's shape that cannot exist",
				"not-found error":  "but a missing resource of the server's own shape is answered ok (1 entry, 2 bytes) (db://tables/readbench-no-such-7f3a9c)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { runRowCase(t, tc) })
	}
}
