package client

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/readbench/readbench/stats"
)

func answerWith(contents string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"result":{"contents":` + contents + `}}`)
}

func TestClassify(t *testing.T) {
	png := base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...)) // 108 bytes
	cases := []struct {
		why    string
		body   string
		modern bool
		kind   stats.Outcome
		disk   int64
		shape  stats.Shape
	}{
		{"text entry: disk bytes are the decoded UTF-8 length",
			string(answerWith(`[{"uri":"u","mimeType":"text/markdown","text":"é \"q\"\n"}]`)), false, stats.OK, 7, stats.Shape{}},
		{"blob entry: decoded length from the base64",
			string(answerWith(`[{"uri":"u","mimeType":"image/png","blob":"` + png + `"}]`)), false, stats.OK, 108, stats.Shape{}},
		{"blob with an escaped slash is still valid",
			string(answerWith(`[{"uri":"u","mimeType":"application/octet-stream","blob":"ab\/d"}]`)), false, stats.OK, 3, stats.Shape{}},
		{"neither text nor blob is a protocol error, never an empty document",
			string(answerWith(`[{"uri":"u","mimeType":"text/plain"}]`)), false, stats.Protocol, 0, stats.Shape{Neither: 1}},
		{"both payload fields",
			string(answerWith(`[{"uri":"u","mimeType":"text/plain","text":"a","blob":"YQ=="}]`)), false, stats.Protocol, 0, stats.Shape{Both: 1}},
		{"bad base64",
			string(answerWith(`[{"uri":"u","mimeType":"image/png","blob":"not base64!"}]`)), false, stats.Protocol, 0, stats.Shape{BadBase64: 1}},
		{"unpadded base64 is not the standard padded encoding",
			string(answerWith(`[{"uri":"u","mimeType":"image/png","blob":"YQ"}]`)), false, stats.Protocol, 0, stats.Shape{BadBase64: 1}},
		{"empty contents",
			string(answerWith(`[]`)), false, stats.Protocol, 0, stats.Shape{EmptyContents: 1}},
		{"uri rewritten and MIME missing are counted on a read that stays ok",
			string(answerWith(`[{"uri":"other","text":"abc"}]`)), false, stats.OK, 3, stats.Shape{URIRewritten: 1, MIMEMissing: 1}},
		{"text declared as JSON must be JSON",
			string(answerWith(`[{"uri":"u","mimeType":"application/json","text":"# not json"}]`)), false, stats.OK, 10, stats.Shape{MIMEMismatch: 1}},
		{"valid JSON text agrees",
			string(answerWith(`[{"uri":"u","mimeType":"application/vnd.api+json","text":"{\"a\": [1, \"é\"]}"}]`)), false, stats.OK, 16, stats.Shape{}},
		{"a binary type cannot arrive as text",
			string(answerWith(`[{"uri":"u","mimeType":"image/png","text":"abc"}]`)), false, stats.OK, 3, stats.Shape{MIMEMismatch: 1}},
		{"PNG bytes declared as JPEG",
			string(answerWith(`[{"uri":"u","mimeType":"image/jpeg","blob":"` + png + `"}]`)), false, stats.OK, 108, stats.Shape{MIMEMismatch: 1}},
		{"several entries: a folder read, whose entries have URIs of their own",
			string(answerWith(`[{"uri":"u/1","mimeType":"text/plain","text":"ab"},{"uri":"u/2","mimeType":"text/plain","text":"cd"}]`)), false, stats.OK, 4, stats.Shape{MultiEntry: 1}},
		{"legacy not found", `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"nope"}}`, false, stats.NotFound, 0, stats.Shape{}},
		{"-32602 is invalid params from a legacy server", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`, false, stats.InvalidParams, 0, stats.Shape{}},
		{"-32602 is not found from a 2026-07-28 server", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`, true, stats.NotFound, 0, stats.Shape{}},
		{"-32602 saying not found is not found from any server (the Go SDK's legacy answer)", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Resource not found"}}`, false, stats.NotFound, 0, stats.Shape{}},
		// The code decides before the words: "Method not found" is a server
		// without resources/read (the TypeScript SDK's answer), not a
		// missing resource.
		{"-32601 saying not found is method not found", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`, false, stats.MethodNotFound, 0, stats.Shape{}},
		{"-32601 is method not found from a 2026-07-28 server", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"resources not supported"}}`, true, stats.MethodNotFound, 0, stats.Shape{}},
		{"a code of the server's own saying not found", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"No such document: docs://x"}}`, false, stats.NotFound, 0, stats.Shape{}},
		{"internal stays internal whatever it says", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"backend not found"}}`, false, stats.Internal, 0, stats.Shape{}},
		{"internal", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"down"}}`, false, stats.Internal, 0, stats.Shape{}},
		{"other codes", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}`, false, stats.RPCError, 0, stats.Shape{}},
		{"input required", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{}}}`, true, stats.InputRequired, 0, stats.Shape{}},
		{"no contents", `{"jsonrpc":"2.0","id":1,"result":{}}`, false, stats.Protocol, 0, stats.Shape{}},
		{"not JSON", `<html>`, false, stats.Protocol, 0, stats.Shape{}},
	}
	for _, c := range cases {
		v := classify([]byte(c.body), "u", c.modern)
		if v.Base64Padding != (3-v.DiskBytes%3)%3 && v.Base64Bytes > 0 && v.Entries == 1 {
			t.Errorf("%s: padding %d for %d decoded bytes", c.why, v.Base64Padding, v.DiskBytes)
		}
		if v.Outcome != c.kind || v.DiskBytes != c.disk || v.Shape != c.shape {
			t.Errorf("%s:\n got %v disk %d shape %+v (%s)\nwant %v disk %d shape %+v", c.why, v.Outcome, v.DiskBytes, v.Shape, v.Detail, c.kind, c.disk, c.shape)
		}
	}
}

// FuzzDecodedLen: the validator agrees with the standard library's strict
// padded decoder on validity and length.
func FuzzDecodedLen(f *testing.F) {
	for _, s := range []string{"", "YQ==", "YWI=", "YWJj", "YQ", "Y===", "YR==", "ab/+", "a\\/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\"\\") {
			return // JSON escaping is exercised by the table test
		}
		v := classify(answerWith(`[{"uri":"u","blob":"`+s+`"}]`), "u", false)
		n, ok := v.DiskBytes, v.Outcome == stats.OK
		b, err := base64.StdEncoding.Strict().DecodeString(s)
		if strings.ContainsAny(s, "\r\n") { // the library skips newlines; JSON strings do not carry raw ones
			return
		}
		if ok != (err == nil) || (ok && n != int64(len(b))) {
			t.Fatalf("blob %q: %d bytes, ok %v; library: %d, %v", s, n, ok, len(b), err)
		}
	})
}

// FuzzClassify: any bytes at all make a kind of answer, never a panic.
func FuzzClassify(f *testing.F) {
	f.Add(answerWith(`[{"uri":"u","text":"x"}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32002}}`))
	f.Add([]byte(fmt.Sprintf(`{"result":{"contents":[{"uri":"u","blob":%q}]}}`, "iVBORw0KGgo=")))
	f.Fuzz(func(t *testing.T, b []byte) {
		v := classify(b, "u", false)
		if v.Outcome > stats.Protocol {
			t.Fatalf("outcome %d", v.Outcome)
		}
	})
}
