package client

import (
	"strings"
	"testing"

	"github.com/readbench/readbench/stats"
)

// TestDecodeToolPart: the read tool's answers, decoded to bytes and eof,
// a failure with its code, or an error when the answer is no read-tool
// answer at all: the one decoding the check and a ranged read share.
func TestDecodeToolPart(t *testing.T) {
	for _, c := range []struct {
		why, body   string
		kind        stats.Outcome
		data, ctype string
		eof         bool
		code        string
		err         string // a substring of the error, "" for none
	}{
		{"bytes, content_type and eof from structuredContent",
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"3 bytes"}],"structuredContent":{"bytes":"YWJj","content_type":"text/plain","eof":true},"isError":false}}`,
			stats.OK, "abc", "text/plain", true, "", ""},
		{"empty bytes are a valid answer",
			`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"","eof":false}}}`, stats.OK, "", "", false, "", ""},
		{"\\/ is legal JSON", `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"Pz8\/","eof":false}}}`, stats.OK, "???", "", false, "", ""},
		{"bytes quoted in the text are not the bytes",
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\"bytes\":\"aGk=\""}],"structuredContent":{"bytes":"","eof":true}}}`,
			stats.OK, "", "", true, "", ""},
		{"a tool error with its code in structuredContent",
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"invalid_path: dir"}],"structuredContent":{"code":"invalid_path","message":"dir"},"isError":true}}`,
			stats.InvalidParams, "", "", false, "invalid_path", ""},
		{"a tool error with its code only in the text",
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"not_found: no such file"}],"isError":true}}`,
			stats.NotFound, "", "", false, "not_found", ""},
		{"a tool error without a code",
			`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}`, stats.RPCError, "", "", false, "", ""},
		{"a JSON-RPC error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"x"}}`, stats.Internal, "", "", false, "", ""},
		{"a result without structuredContent cannot be used",
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"abc"}]}}`, stats.OK, "", "", false, "", "no structuredContent"},
		{"bytes that are not base64",
			`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"a!","content_type":"x/y","eof":true}}}`, stats.OK, "", "", false, "", "not standard base64"},
		{"eof that is no boolean", `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"aGk=","eof":"yes"}}}`, stats.OK, "", "", false, "", "no structuredContent"},
		{"no jsonrpc member", `{"id":1,"result":{"structuredContent":{"bytes":"aGk=","eof":true}}}`, stats.OK, "", "", false, "", "jsonrpc"},
		{"not JSON", `not json`, stats.OK, "", "", false, "", "not a JSON-RPC message"},
	} {
		p, err := DecodeToolPart([]byte(c.body))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.why, err, c.err)
			}
			continue
		}
		if err != nil || partOutcome(&p) != c.kind || string(p.Data) != c.data || p.ContentType != c.ctype || p.EOF != c.eof || p.Code != c.code {
			t.Errorf("%s: %+v (kind %v), %v", c.why, p, partOutcome(&p), err)
		}
	}
}

// FuzzDecodeToolPart: any answer decodes to a part or an error, never a
// panic; a failed part carries no bytes, and decoded bytes are exactly the
// base64 the answer carried.
func FuzzDecodeToolPart(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"aGk=","content_type":"text/plain","eof":true}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"structuredContent":{"code":"invalid_path"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"x"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"bytes":"Pz8\/","eof":false}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := DecodeToolPart(body)
		if (err != nil || partOutcome(&p) != stats.OK) && len(p.Data) != 0 {
			t.Errorf("a failure (%v, kind %v) with %d bytes", err, partOutcome(&p), len(p.Data))
		}
		if int64(len(p.Data)) > p.Base64Bytes {
			t.Errorf("%d bytes from %d base64 characters", len(p.Data), p.Base64Bytes)
		}
	})
}

// TestToolPartDetailIsClipped: a server message quoting a whole part (the
// Go SDK's output validation does) is clipped for the log.
func TestToolPartDetailIsClipped(t *testing.T) {
	p, err := DecodeToolPart([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"` + strings.Repeat("QUJD", 50_000) + `"}}`))
	why := p.describe()
	if err != nil || partOutcome(&p) != stats.RPCError || len(why) > 300 || !strings.Contains(why, "(200000 bytes)") {
		t.Errorf("%v, kind %v, %d bytes of why: %.80s", err, partOutcome(&p), len(why), why)
	}
}

// partOutcome is the outcome a part gives a read in parts (decide).
func partOutcome(p *ToolPart) stats.Outcome { return decided(p.ending(0)) }
