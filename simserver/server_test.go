package simserver

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// Era and error behaviour, over raw stdio lines.

func TestNotFoundPerEra(t *testing.T) {
	p := startStdio(t, New(Options{}))
	cases := []struct {
		version string // "" = legacy (no _meta)
		uri     string
		code    int
	}{
		{"", "docs://team/x", protocol.CodeResourceNotFound},
		{protocol.V20260728, "docs://team/x", protocol.CodeInvalidParams},
		{"", "sim:///x?colour=red", protocol.CodeInvalidParams},
		{protocol.V20260728, "sim:///x?colour=red", protocol.CodeInvalidParams},
		{"", "::bad", protocol.CodeInvalidParams},
		{protocol.V20250618, "docs://team/x", protocol.CodeResourceNotFound}, // a legacy version in _meta stays legacy
	}
	for i, tc := range cases {
		e := rpcError(t, p.roundTrip(request(t, i+1, protocol.MethodResourcesRead, readParams(tc.uri, tc.version))))
		if e.Code != tc.code {
			t.Errorf("%s %q: code %d, want %d", tc.version, tc.uri, e.Code, tc.code)
		}
		if d := errData(t, e); d["uri"] != tc.uri {
			t.Errorf("%s %q: data %v", tc.version, tc.uri, d)
		}
	}
}

func TestUnsupportedVersionAndMeta(t *testing.T) {
	p := startStdio(t, New(Options{}))
	e := rpcError(t, p.roundTrip(request(t, 1, protocol.MethodResourcesRead, readParams("sim:///x", "2099-01-01"))))
	if e.Code != protocol.CodeUnsupportedProtocolVersion {
		t.Fatalf("code %d", e.Code)
	}
	var d struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	if err := json.Unmarshal(e.Data, &d); err != nil || d.Requested != "2099-01-01" || len(d.Supported) != len(protocol.Versions()) || d.Supported[0] != protocol.V20260728 {
		t.Errorf("data %s: %v", e.Data, err)
	}
	noCaps := map[string]any{"uri": "sim:///x", "_meta": map[string]any{protocol.MetaProtocolVersion: protocol.V20260728}}
	if e := rpcError(t, p.roundTrip(request(t, 2, protocol.MethodResourcesRead, noCaps))); e.Code != protocol.CodeInvalidParams {
		t.Errorf("missing capabilities: %d", e.Code)
	}
	badMeta := map[string]any{"uri": "sim:///x", "_meta": map[string]any{protocol.MetaProtocolVersion: 7}}
	if e := rpcError(t, p.roundTrip(request(t, 3, protocol.MethodResourcesRead, badMeta))); e.Code != protocol.CodeInvalidParams {
		t.Errorf("non-string version: %d", e.Code)
	}
	if e := rpcError(t, p.roundTrip(request(t, 4, "no/such/method", nil))); e.Code != protocol.CodeMethodNotFound {
		t.Errorf("unknown method: %d", e.Code)
	}
	p.send(`{"jsonrpc":"2.0","id":5,"method":`)
	if m := p.next(); string(m.ID) != "null" || rpcError(t, m).Code != protocol.CodeParseError {
		t.Errorf("malformed JSON: id %s error %v", m.ID, m.Error)
	}
	if e := rpcError(t, p.roundTrip(`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":[1]}`)); e.Code != protocol.CodeInvalidParams {
		t.Errorf("params array: %d", e.Code)
	}
}

func TestInitializeNegotiates(t *testing.T) {
	p := startStdio(t, New(Options{Name: "sim", Version: "9"}))
	for i, tc := range []struct{ asked, want string }{
		{protocol.V20250326, protocol.V20250326},
		{protocol.V20241105, protocol.V20241105},
		{"1999-01-01", protocol.LatestLegacy},
		{protocol.V20260728, protocol.LatestLegacy},
	} {
		m := p.roundTrip(request(t, i+1, protocol.MethodInitialize, map[string]any{"protocolVersion": tc.asked, "capabilities": map[string]any{}}))
		var r struct {
			ProtocolVersion string            `json:"protocolVersion"`
			ServerInfo      map[string]string `json:"serverInfo"`
			Capabilities    map[string]any    `json:"capabilities"`
		}
		if err := json.Unmarshal(m.Result, &r); err != nil || r.ProtocolVersion != tc.want || r.ServerInfo["name"] != "sim" || r.ServerInfo["version"] != "9" || r.Capabilities["resources"] == nil {
			t.Errorf("initialize %s: %s (%v)", tc.asked, m.Result, err)
		}
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if m := p.roundTrip(request(t, 9, protocol.MethodPing, nil)); string(m.Result) != "{}" {
		t.Errorf("ping: %s", m.Result)
	}
}

func TestModernResultShape(t *testing.T) {
	p := startStdio(t, New(Options{}))
	m := p.roundTrip(request(t, 1, protocol.MethodDiscover, map[string]any{"_meta": modernMeta(protocol.V20260728)}))
	var d struct {
		Meta              map[string]map[string]string `json:"_meta"`
		ResultType        string                       `json:"resultType"`
		SupportedVersions []string                     `json:"supportedVersions"`
		Capabilities      map[string]any               `json:"capabilities"`
	}
	if err := json.Unmarshal(m.Result, &d); err != nil || d.ResultType != "complete" || d.Meta[protocol.MetaServerInfo]["name"] != "readbench-simserver" ||
		len(d.SupportedVersions) != 5 || d.Capabilities["resources"] == nil {
		t.Errorf("discover: %s (%v)", m.Result, err)
	}
	r := decodeRead(t, p.roundTrip(request(t, 2, protocol.MethodResourcesRead, readParams("sim:///a?size=3&ttl=5000&scope=private", protocol.V20260728))))
	if r.ResultType == nil || *r.ResultType != "complete" || r.TTLMs == nil || *r.TTLMs != 5000 || *r.CacheScope != "private" || r.Meta[protocol.MetaServerInfo] == nil {
		t.Errorf("modern read: %+v", r)
	}
	r = decodeRead(t, p.roundTrip(request(t, 3, protocol.MethodResourcesRead, readParams("sim:///a?size=3", protocol.V20260728))))
	if *r.TTLMs != 0 || *r.CacheScope != "public" {
		t.Errorf("default cache hints: %d %s", *r.TTLMs, *r.CacheScope)
	}
	r = decodeRead(t, p.roundTrip(request(t, 4, protocol.MethodResourcesRead, readParams("sim:///a?size=3", ""))))
	if r.ResultType != nil || r.TTLMs != nil || r.Meta != nil || len(r.Contents) != 1 {
		t.Errorf("legacy read carries modern fields: %+v", r)
	}
}

func TestInputRequired(t *testing.T) {
	p := startStdio(t, New(Options{}))
	uri := "sim:///form?size=10&input_required=true"
	m := p.roundTrip(request(t, 1, protocol.MethodResourcesRead, readParams(uri, protocol.V20260728)))
	var r struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	if err := json.Unmarshal(m.Result, &r); err != nil || r.ResultType != "input_required" || len(r.InputRequests) != 1 || r.RequestState == "" {
		t.Fatalf("input_required: %s (%v)", m.Result, err)
	}
	retry := readParams(uri, protocol.V20260728)
	retry["requestState"] = r.RequestState
	retry["inputResponses"] = map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}}
	if rr := decodeRead(t, p.roundTrip(request(t, 2, protocol.MethodResourcesRead, retry))); *rr.ResultType != "complete" || len(rr.Contents) != 1 {
		t.Errorf("retry: %+v", rr)
	}
	if rr := decodeRead(t, p.roundTrip(request(t, 3, protocol.MethodResourcesRead, readParams(uri, "")))); len(rr.Contents) != 1 {
		t.Errorf("legacy ignores input_required: %+v", rr)
	}
}

func TestSimulatedErrors(t *testing.T) {
	p := startStdio(t, New(Options{}))
	for i, code := range []int{protocol.CodeInternal, protocol.CodeResourceNotFound, -32000, 42} {
		uri := "sim:///e?error=" + itoa(code)
		e := rpcError(t, p.roundTrip(request(t, i+1, protocol.MethodResourcesRead, readParams(uri, ""))))
		if e.Code != code || errData(t, e)["uri"] != uri {
			t.Errorf("error=%d: %+v", code, e)
		}
	}
}

func TestCatalogPagination(t *testing.T) {
	for _, version := range []string{"", protocol.V20260728} {
		p := startStdio(t, New(Options{CatalogSize: 7, PageSize: 3}))
		var all []Resource
		cursor, pages := "", 0
		for id := 1; ; id++ {
			params := map[string]any{}
			if cursor != "" {
				params["cursor"] = cursor
			}
			if version != "" {
				params["_meta"] = modernMeta(version)
			}
			m := p.roundTrip(request(t, id, protocol.MethodResourcesList, params))
			var page struct {
				Resources  []Resource `json:"resources"`
				NextCursor string     `json:"nextCursor"`
			}
			if err := json.Unmarshal(m.Result, &page); err != nil {
				t.Fatal(err, string(m.Result))
			}
			pages++
			all = append(all, page.Resources...)
			if cursor = page.NextCursor; cursor == "" {
				break
			}
		}
		if pages != 3 || len(all) != 7 {
			t.Errorf("%q: %d pages, %d resources", version, pages, len(all))
		}
		for i, r := range all {
			es, err := Content(r.URI)
			if err != nil || int64(len(es[0].Data)) != r.Size || es[0].MIME != r.MIMEType {
				t.Errorf("resource %d %s does not read back as listed: %v", i, r.URI, err)
			}
		}
		bad := map[string]any{"cursor": "not-a-cursor"}
		if e := rpcError(t, p.roundTrip(request(t, 99, protocol.MethodResourcesList, bad))); e.Code != protocol.CodeInvalidParams {
			t.Errorf("bad cursor: %d", e.Code)
		}
	}
}

func TestRangedReadTool(t *testing.T) {
	g := newGenerator()
	p := startStdio(t, New(Options{}))
	uri := "sim:///big.log?mime=text/plain&size=1000"
	want := oneEntry(t, g, uri).Data
	call := func(id int, args map[string]any) map[string]any {
		m := p.roundTrip(request(t, id, protocol.MethodToolsCall, map[string]any{"name": "read", "arguments": args}))
		var r map[string]any
		if err := json.Unmarshal(m.Result, &r); err != nil {
			t.Fatal(err, m.Error)
		}
		return r
	}
	for i, tc := range []struct {
		off, n int64
		eof    bool
	}{{0, 400, false}, {400, 600, true}, {900, 500, true}, {1000, 10, true}, {5000, 10, true}, {10, 0, false}} {
		r := call(i+1, map[string]any{"path": uri, "offset": tc.off, "length": tc.n})
		sc := r["structuredContent"].(map[string]any)
		got, err := base64.StdEncoding.DecodeString(sc["bytes"].(string))
		lo, hi := min(tc.off, 1000), min(tc.off+tc.n, 1000)
		if err != nil || string(got) != string(want[lo:hi]) || sc["eof"] != tc.eof || sc["content_type"] != "text/plain" {
			t.Errorf("range %d+%d: %d bytes eof %v (%v)", tc.off, tc.n, len(got), sc["eof"], err)
		}
	}
	for i, tc := range []struct{ path, code string }{{"docs://x", "not_found"}, {"sim:///d?entries=3", "invalid_path"}, {"sim:///d?bogus=1", "invalid_path"}} {
		r := call(20+i, map[string]any{"path": tc.path})
		if r["isError"] != true || r["structuredContent"].(map[string]any)["code"] != tc.code {
			t.Errorf("%s: %v", tc.path, r)
		}
	}
	m := p.roundTrip(request(t, 30, protocol.MethodToolsList, nil))
	if !strings.Contains(string(m.Result), `"name":"read"`) {
		t.Errorf("tools/list: %s", m.Result)
	}
	if e := rpcError(t, p.roundTrip(request(t, 31, protocol.MethodToolsCall, map[string]any{"name": "write"}))); e.Code != protocol.CodeInvalidParams {
		t.Errorf("unknown tool: %d", e.Code)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestMetaTags keeps requestMeta's JSON tags in step with protocol's keys.
func TestMetaTags(t *testing.T) {
	var m requestMeta
	raw := `{"` + protocol.MetaProtocolVersion + `":"v","` + protocol.MetaClientCapabilities + `":{"x":1},"` +
		protocol.MetaTraceParent + `":"tp","` + protocol.MetaTraceState + `":"ts"}`
	if err := json.Unmarshal([]byte(raw), &m); err != nil || string(m.ProtocolVersion) != `"v"` || string(m.ClientCapabilities) != `{"x":1}` ||
		string(m.TraceParent) != `"tp"` || string(m.TraceState) != `"ts"` {
		t.Errorf("requestMeta decodes %s as %+v (%v)", raw, m, err)
	}
}
