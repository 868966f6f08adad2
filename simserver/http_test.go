package simserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// TestHTTPPlainModernRead is what `curl` does: one POST with the three
// headers and _meta reads a resource, no handshake.
func TestHTTPPlainModernRead(t *testing.T) {
	g := newGenerator()
	url := startHTTP(t, New(Options{}))
	uri := "sim:///shot.png?mime=image/png&size=1000"
	status, h, body := post(t, url, modernHeaders(protocol.MethodResourcesRead, uri), request(t, 1, protocol.MethodResourcesRead, readParams(uri, protocol.V20260728)))
	if status != http.StatusOK || h.Get("Content-Type") != protocol.ContentTypeJSON {
		t.Fatalf("status %d, type %q: %s", status, h.Get("Content-Type"), body)
	}
	r := decodeRead(t, decodeMsg(t, body))
	blob, err := base64.StdEncoding.DecodeString(r.Contents[0]["blob"].(string))
	if err != nil || !bytes.Equal(blob, oneEntry(t, g, uri).Data) || *r.ResultType != "complete" {
		t.Errorf("read: %v, %d bytes", err, len(blob))
	}
}

func TestHTTPModernErrors(t *testing.T) {
	url := startHTTP(t, New(Options{}))
	uri := "sim:///a.md?mime=text/markdown&size=10"
	readBody := request(t, 1, protocol.MethodResourcesRead, readParams(uri, protocol.V20260728))
	with := func(k, v string) map[string]string {
		h := modernHeaders(protocol.MethodResourcesRead, uri)
		h[k] = v
		return h
	}
	cases := []struct {
		what    string
		headers map[string]string
		body    string
		status  int
		code    int
	}{
		{"version header differs from _meta", with(protocol.HeaderProtocolVersion, protocol.V20251125), readBody, 400, protocol.CodeHeaderMismatch},
		{"no version header", with(protocol.HeaderProtocolVersion, ""), readBody, 400, protocol.CodeHeaderMismatch},
		{"method header differs", with(protocol.HeaderMethod, protocol.MethodResourcesList), readBody, 400, protocol.CodeHeaderMismatch},
		{"no method header", with(protocol.HeaderMethod, ""), readBody, 400, protocol.CodeHeaderMismatch},
		{"name header differs", with(protocol.HeaderName, "sim:///other"), readBody, 400, protocol.CodeHeaderMismatch},
		{"no name header", with(protocol.HeaderName, ""), readBody, 400, protocol.CodeHeaderMismatch},
		{"bad base64 name", with(protocol.HeaderName, "=?base64?!!!?="), readBody, 400, protocol.CodeHeaderMismatch},
		{"unsupported version", map[string]string{protocol.HeaderProtocolVersion: "2099-01-01", protocol.HeaderMethod: protocol.MethodResourcesRead, protocol.HeaderName: uri},
			request(t, 1, protocol.MethodResourcesRead, readParams(uri, "2099-01-01")), 400, protocol.CodeUnsupportedProtocolVersion},
		{"modern header without _meta", modernHeaders(protocol.MethodResourcesRead, uri), request(t, 1, protocol.MethodResourcesRead, readParams(uri, "")), 400, protocol.CodeInvalidParams},
		{"unknown legacy version header", map[string]string{protocol.HeaderProtocolVersion: "2024-01-01"}, request(t, 1, protocol.MethodResourcesRead, readParams(uri, "")), 400, protocol.CodeUnsupportedProtocolVersion},
		{"not found", modernHeaders(protocol.MethodResourcesRead, "docs://x"), request(t, 1, protocol.MethodResourcesRead, readParams("docs://x", protocol.V20260728)), 400, protocol.CodeInvalidParams},
		{"unknown method", modernHeaders("no/such", ""), request(t, 1, "no/such", map[string]any{"_meta": modernMeta(protocol.V20260728)}), 404, protocol.CodeMethodNotFound},
		{"simulated internal error", modernHeaders(protocol.MethodResourcesRead, "sim:///e?error=-32603"), request(t, 1, protocol.MethodResourcesRead, readParams("sim:///e?error=-32603", protocol.V20260728)), 200, protocol.CodeInternal},
		{"legacy not found", nil, request(t, 1, protocol.MethodResourcesRead, readParams("docs://x", "")), 200, protocol.CodeResourceNotFound},
		{"legacy unknown method", map[string]string{protocol.HeaderProtocolVersion: protocol.V20250618}, request(t, 1, "no/such", nil), 200, protocol.CodeMethodNotFound},
		{"malformed JSON", nil, `{"jsonrpc":"2.0","id":1,`, 400, protocol.CodeParseError},
		{"batch", nil, "[" + readBody + "]", 400, protocol.CodeInvalidRequest},
	}
	for _, tc := range cases {
		status, h, body := post(t, url, tc.headers, tc.body)
		if status != tc.status || h.Get("Content-Type") != protocol.ContentTypeJSON {
			t.Errorf("%s: status %d type %q, want %d: %s", tc.what, status, h.Get("Content-Type"), tc.status, body)
			continue
		}
		m := decodeMsg(t, body)
		if m.Error == nil || m.Error.Code != tc.code {
			t.Errorf("%s: %s, want code %d", tc.what, body, tc.code)
		}
		if tc.code == protocol.CodeParseError && string(m.ID) != "null" {
			t.Errorf("%s: id %s, want null", tc.what, m.ID)
		}
	}
	// The base64 form of Mcp-Name is accepted, and so is a non-ASCII URI.
	for _, u := range []string{uri, "sim:///café-日本.md?mime=text/markdown&size=10"} {
		h := modernHeaders(protocol.MethodResourcesRead, u)
		h[protocol.HeaderName] = "=?base64?" + base64.StdEncoding.EncodeToString([]byte(u)) + "?="
		if status, _, body := post(t, url, h, request(t, 2, protocol.MethodResourcesRead, readParams(u, protocol.V20260728))); status != 200 {
			t.Errorf("base64 Mcp-Name for %s: %d %s", u, status, body)
		}
	}
}

func TestHTTPMethodsAndNotifications(t *testing.T) {
	url := startHTTP(t, New(Options{}))
	for _, method := range []string{http.MethodGet, http.MethodDelete, http.MethodPut} {
		req, _ := http.NewRequest(method, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s: %d allow %q", method, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
	for _, h := range []map[string]string{nil, modernHeaders(protocol.MethodCancelled, "")} {
		status, _, body := post(t, url, h, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
		if status != http.StatusAccepted || len(body) != 0 {
			t.Errorf("notification: %d %q", status, body)
		}
	}
	// A legacy client with no header at all, never initialized: served (lenient).
	status, _, body := post(t, url, nil, request(t, 1, protocol.MethodResourcesRead, readParams("sim:///x?size=4", "")))
	if r := decodeRead(t, decodeMsg(t, body)); status != 200 || len(r.Contents) != 1 || r.ResultType != nil {
		t.Errorf("legacy read without handshake: %d %s", status, body)
	}
}

func TestHTTPSSE(t *testing.T) {
	g := newGenerator()
	for _, tc := range []struct {
		opts Options
		uri  string
	}{{Options{SSE: true}, "sim:///a.json?mime=application/json&size=3000"}, {Options{}, "sim:///a.json?mime=application/json&size=3000&sse=true"}} {
		url := startHTTP(t, New(tc.opts))
		for _, version := range []string{"", protocol.V20260728} {
			h := map[string]string{}
			if version != "" {
				h = modernHeaders(protocol.MethodResourcesRead, tc.uri)
			}
			status, hdr, body := post(t, url, h, request(t, 7, protocol.MethodResourcesRead, readParams(tc.uri, version)))
			if status != 200 || hdr.Get("Content-Type") != protocol.ContentTypeSSE {
				t.Fatalf("status %d type %q", status, hdr.Get("Content-Type"))
			}
			sr := protocol.NewSSEReader(bytes.NewReader(body))
			ev, err := sr.Next()
			if err != nil || ev.Name != "message" {
				t.Fatalf("event %+v: %v", ev, err)
			}
			r := decodeRead(t, decodeMsg(t, ev.Data))
			if r.Contents[0]["text"] != string(oneEntry(t, g, tc.uri).Data) {
				t.Errorf("SSE text differs")
			}
			if _, err := sr.Next(); err == nil {
				t.Error("more than one event")
			}
		}
		// Errors with a 4xx status stay JSON so the status can speak.
		status, hdr, _ := post(t, url, modernHeaders(protocol.MethodResourcesRead, "docs://x"), request(t, 1, protocol.MethodResourcesRead, readParams("docs://x", protocol.V20260728)))
		if status != 400 || hdr.Get("Content-Type") != protocol.ContentTypeJSON {
			t.Errorf("SSE mode error: %d %q", status, hdr.Get("Content-Type"))
		}
	}
	// A client accepting only JSON gets JSON even in SSE mode.
	url := startHTTP(t, New(Options{SSE: true}))
	_, hdr, _ := post(t, url, map[string]string{"Accept": "application/json"}, request(t, 1, protocol.MethodPing, nil))
	if hdr.Get("Content-Type") != protocol.ContentTypeJSON {
		t.Errorf("Accept JSON only: %q", hdr.Get("Content-Type"))
	}
}

func TestHTTPStatefulSessions(t *testing.T) {
	url := startHTTP(t, New(Options{Stateful: true}))
	read := request(t, 2, protocol.MethodResourcesRead, readParams("sim:///x?size=5", ""))
	status, hdr, body := post(t, url, nil, request(t, 1, protocol.MethodInitialize, map[string]any{"protocolVersion": protocol.V20250618, "capabilities": map[string]any{}}))
	sid := hdr.Get(protocol.HeaderSessionID)
	if status != 200 || sid == "" || !strings.Contains(string(body), protocol.V20250618) {
		t.Fatalf("initialize: %d sid %q %s", status, sid, body)
	}
	if status, _, _ := post(t, url, nil, read); status != http.StatusBadRequest {
		t.Errorf("no session id: %d", status)
	}
	if status, _, _ := post(t, url, map[string]string{protocol.HeaderSessionID: "bogus"}, read); status != http.StatusNotFound {
		t.Errorf("unknown session id: %d", status)
	}
	if status, _, _ := post(t, url, map[string]string{protocol.HeaderSessionID: sid}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
		t.Errorf("initialized: %d", status)
	}
	if status, _, body := post(t, url, map[string]string{protocol.HeaderSessionID: sid, protocol.HeaderProtocolVersion: protocol.V20250618}, read); status != 200 || decodeMsg(t, body).Error != nil {
		t.Errorf("read in session: %d %s", status, body)
	}
	// 2026-07-28 requests are stateless even here.
	uri := "sim:///x?size=5"
	if status, _, body := post(t, url, modernHeaders(protocol.MethodResourcesRead, uri), request(t, 3, protocol.MethodResourcesRead, readParams(uri, protocol.V20260728))); status != 200 {
		t.Errorf("modern read without session: %d %s", status, body)
	}
	del := func() int {
		req, _ := http.NewRequest(http.MethodDelete, url, nil)
		req.Header.Set(protocol.HeaderSessionID, sid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := del(); got != http.StatusNoContent {
		t.Errorf("DELETE: %d", got)
	}
	if got := del(); got != http.StatusNotFound {
		t.Errorf("second DELETE: %d", got)
	}
	if status, _, _ := post(t, url, map[string]string{protocol.HeaderSessionID: sid}, read); status != http.StatusNotFound {
		t.Errorf("read after DELETE: %d", status)
	}
}

func TestHTTPDiscoverWithoutMeta(t *testing.T) {
	url := startHTTP(t, New(Options{}))
	_, _, body := post(t, url, nil, request(t, 1, protocol.MethodDiscover, nil))
	var r struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if err := json.Unmarshal(decodeMsg(t, body).Result, &r); err != nil || len(r.SupportedVersions) != 5 {
		t.Errorf("discover: %s", body)
	}
}
