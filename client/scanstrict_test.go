package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// okAnswer wraps a fragment into an answer that is usable when the
// fragment is valid JSON in the place it takes.
func okAnswer(id, extra, text string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"contents":[{"uri":"u","mimeType":"text/plain","text":"` + text + `"}]` + extra + `}}`
}

// TestScanRejectsInvalidJSON: an answer encoding/json rejects is a
// protocol outcome with the reason, whatever else it holds, and however
// it is cut; the walk reads past the fault, so an id after it is still
// known (it routes the answer to its read on a shared stream).
func TestScanRejectsInvalidJSON(t *testing.T) {
	cases := []struct {
		why, body, reason string
	}{
		{"issue: a number with a dangling exponent", `{"id":1-2e,"result":{"contents":[{"uri":"u","text":"a"}]}}`, "invalid character '-' in a number"},
		{"issue: a leading zero", okAnswer("01", "", "a"), "leading zero"},
		{"issue: trailing garbage", okAnswer("1", "", "a") + ` {"x":1}`, `'{' after the message's object`},
		{"a second message after the first", okAnswer("1", "", "a") + "\n" + okAnswer("2", "", "b"), `'{' after the message's object`},
		{"a leading zero in a nested number", okAnswer("1", `,"ttlMs":00`, "a"), "leading zero"},
		{"-0 followed by a digit", okAnswer("1", `,"x":-01`, "a"), "leading zero"},
		{"a fraction without digits", okAnswer("1", `,"x":1.`, "a"), "number ends before its digits"},
		{"an exponent without digits", okAnswer("1", `,"x":1e+`, "a"), "number ends before its digits"},
		{"a dot first", okAnswer("1", `,"x":-.5`, "a"), `'.' in a number`},
		{"two dots", okAnswer("1", `,"x":1.2.3`, "a"), `'.' in a number`},
		{"a plus sign", okAnswer("1", `,"x":1+2`, "a"), `'+' in a number`},
		{"a minus in the middle", okAnswer("1", `,"x":[0-1]`, "a"), `'-' in a number`},
		{"a raw newline in a text", okAnswer("1", "", "line\nline"), "control character 0x0a in a string"},
		{"a raw tab in a text", okAnswer("1", "", "a\tb"), "control character 0x09"},
		{"a raw NUL in a long text", okAnswer("1", "", strings.Repeat("abcdefgh", 20)+"\x00"), "control character 0x00"},
		{"a control beside non-ASCII", okAnswer("1", "", "café\x01"), "control character 0x01"},
		{"a control in a member name", `{"id":1,"re` + "\x1f" + `sult":{},"result":{"contents":[{"uri":"u","text":"a"}]}}`, "control character 0x1f"},
		{"a control in a skipped string", okAnswer("1", `,"_meta":{"note":"a`+"\x02"+`"}`, "a"), "control character 0x02"},
		{"a control in the error message", `{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"no` + "\r" + `pe"}}`, "control character 0x0d"},
		{"a control in a bad blob", `{"id":1,"result":{"contents":[{"uri":"u","blob":"YQ` + "\n" + `=="}]}}`, "control character 0x0a"},
		{"a control in a blob replaced later", `{"id":1,"result":{"contents":[{"uri":"u","blob":"Y` + "\x05" + `Q=","blob":"YQ=="}]}}`, "control character 0x05"},
		{"a control in a result replaced later", `{"id":1,"result":{"contents":[{"uri":"u","text":"` + "\x03" + `"}]},"result":{"contents":[{"uri":"u","text":"a"}]}}`, "control character 0x03"},
	}
	for _, c := range cases {
		body := []byte(c.body)
		if json.Valid(body) {
			t.Fatalf("%s: the case is valid JSON", c.why)
		}
		for _, cuts := range [][]byte{nil, bytes.Repeat([]byte{1}, len(body)), {5, 3, 17}} {
			v := scanChunked(body, cuts, "u", false, false, true)
			if v.Outcome != stats.Protocol || !strings.Contains(v.Detail, c.reason) || !strings.Contains(v.Detail, "not valid JSON") {
				t.Errorf("%s (cuts %d): %v %q, want protocol with %q", c.why, len(cuts), v.Outcome, v.Detail, c.reason)
			}
		}
	}
}

// TestScanInvalidKeepsID: past a fault the walk can read over, the id
// that follows is still known, so the answer reaches its read and is a
// protocol outcome there rather than an answer nobody waits for.
func TestScanInvalidKeepsID(t *testing.T) {
	var s answerScanner
	s.reset(false, "", false)
	s.feed([]byte(`{"result":{"contents":[{"uri":"u","text":"a"}],"n":01},"id":7}` + " x"))
	if got := string(s.idOf()); got != "7" {
		t.Errorf("id %q, want 7", got)
	}
	if !s.isResponse() {
		t.Error("not taken for a response: an SSE read would wait for another event")
	}
	if v := s.scanned("u", false); v.Outcome != stats.Protocol || !strings.Contains(v.Detail, "leading zero") {
		t.Errorf("%v %q", v.Outcome, v.Detail)
	}
}

// TestScanAcceptsValidJSON: what json.Valid accepts stays usable:
// numbers at the edges of the grammar, whitespace after the message,
// DEL and invalid UTF-8 in strings (encoding/json decodes the latter as
// U+FFFD), repeated members (the last wins).
func TestScanAcceptsValidJSON(t *testing.T) {
	cases := []struct{ why, body string }{
		{"zero, negative zero, fractions, exponents", okAnswer("0", `,"a":[-0,0.5,-0.0e0,1E+2,1e-2,12.34E56,10]`, "a")},
		{"whitespace after the message", okAnswer("1", "", "a") + " \r\n\t"},
		{"DEL in a text", okAnswer("1", "", "a\x7fb")},
		{"invalid UTF-8 in a text", okAnswer("1", "", "a\xffb\xed\xa0\x80")},
		{"escaped controls", okAnswer("1", "", `\n\t\u0000\u001f`)},
		{"a repeated member", okAnswer("1", `,"ttlMs":1,"ttlMs":2`, "a")},
	}
	for _, c := range cases {
		body := []byte(c.body)
		if !json.Valid(body) {
			t.Fatalf("%s: the case is not valid JSON", c.why)
		}
		for _, cuts := range [][]byte{nil, bytes.Repeat([]byte{1}, len(body))} {
			if v := scanChunked(body, cuts, "u", false, false, true); v.Outcome != stats.OK {
				t.Errorf("%s (cuts %d): %v %q, want ok", c.why, len(cuts), v.Outcome, v.Detail)
			}
		}
	}
}

// TestStreamedReadsInvalidJSON: on every transport, a read whose answer
// encoding/json rejects (a bad number before an id that comes last, data
// after the message on its stdio line, in its SSE event or HTTP body)
// reaches its read as a protocol outcome with the reason, not a timeout
// and not ok, and the next read on the same connection is ok.
func TestStreamedReadsInvalidJSON(t *testing.T) {
	reads := []struct{ uri, reason string }{
		{"gen://text/1000/idlast/badnum", "leading zero"},
		{"gen://blob/3000/badnum", "leading zero"},
		{"gen://text/1000/trailing", "'x' after the message's object"},
		{"gen://text/1000", ""},
	}
	run := func(t *testing.T, tr interface {
		call(context.Context, Request) (*Response, error)
	}) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		for i, r := range reads {
			a, err := tr.call(ctx, readReq(int64(i+1), r.uri, true))
			switch {
			case err != nil:
				t.Errorf("%s: %v", r.uri, err)
			case r.reason == "" && a.read.Outcome != stats.OK:
				t.Errorf("%s: %v %q, want ok", r.uri, a.read.Outcome, a.read.Detail)
			case r.reason != "" && (a.read.Outcome != stats.Protocol || !strings.Contains(a.read.Detail, r.reason)):
				t.Errorf("%s: %v %q, want protocol: %s", r.uri, a.read.Outcome, a.read.Detail, r.reason)
			}
		}
	}
	t.Run("stdio", func(t *testing.T) {
		tr, err := startStdio(peertest.Command(t, genStdioPeer), nil, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.close()
		run(t, tr)
	})
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("http sse=%v", sse), func(t *testing.T) {
			tr := newHTTPTransport(peertest.ServeLocal(t, genHTTP(sse)).URL, nil, 0)
			defer tr.close()
			run(t, tr)
		})
	}
	t.Run("http+sse", func(t *testing.T) {
		f := newFakeSSE(t, func(msg []byte, send func(string)) {
			m, err := protocol.Decode(msg)
			if err != nil || m.Method != protocol.MethodResourcesRead {
				return
			}
			var p struct{ URI string }
			_ = json.Unmarshal(m.Params, &p)
			n, _ := protocol.ParseIntID(m.ID)
			send("event: message\ndata: " + string(genAnswer(n, p.URI)) + "\n\n")
		})
		run(t, f.start(t, nil))
	})
}
