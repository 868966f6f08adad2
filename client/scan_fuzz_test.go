package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// scanChunked classifies body through the streaming scanner fed in the
// chunks cuts says (each byte of cuts is the length of the next chunk,
// 0 meaning 1; the rest goes in one), with the uri known from the start
// or only at the end (an id after the payload on a shared stream).
func scanChunked(body, cuts []byte, uri string, uriLate, modern, digest bool) Answer {
	var s answerScanner
	if uriLate {
		s.reset(false, "", digest)
	} else {
		s.reset(true, uri, digest)
	}
	for _, c := range cuts {
		if len(body) == 0 {
			break
		}
		n := min(max(int(c), 1), len(body))
		s.feed(body[:n])
		body = body[n:]
	}
	s.feed(body)
	return s.scanned(uri, modern)
}

// scanSyntaxOK reports whether the scanner, fed body in the chunks cuts
// says, finds no syntax fault in it.
func scanSyntaxOK(body, cuts []byte) bool {
	var s answerScanner
	s.reset(true, "u", false)
	for _, c := range cuts {
		n := min(max(int(c), 1), len(body))
		s.feed(body[:n])
		body = body[n:]
	}
	s.feed(body)
	s.finishSyntax()
	return s.state == sDone && s.invalid == ""
}

// isObjectNested reports whether b is an object whose containers nest
// fewer than depth deep (b is valid JSON, or the answer does not matter).
func isObjectNested(b []byte, depth int) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	d, inStr, esc := 0, false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			if d++; d >= depth {
				return false
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return true
}

// sameVerdict compares everything but Detail and Reason (whose wording of
// a syntax error may differ) and Digest.
func sameVerdict(a, b Answer) bool {
	a.Detail, b.Detail, a.Reason, b.Reason, a.Digest, b.Digest = "", "", "", "", "", ""
	return reflect.DeepEqual(a, b)
}

// refDigest is the digest of a usable answer by encoding/json and
// encoding/base64: raw control characters, which the scanner keeps as
// they are and encoding/json refuses, are escaped first.
func refDigest(body []byte) string {
	var m struct {
		Result struct {
			Contents []map[string]json.RawMessage `json:"contents"`
		} `json:"result"`
	}
	if json.Unmarshal(escapeControls(body), &m) != nil {
		return "?"
	}
	h := sha256.New()
	for _, e := range m.Result.Contents {
		var s string
		if raw, ok := e["text"]; ok {
			_ = json.Unmarshal(raw, &s)
			h.Write([]byte(s))
		} else {
			_ = json.Unmarshal(e["blob"], &s)
			b, _ := base64.StdEncoding.DecodeString(s)
			h.Write(b)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func escapeControls(b []byte) []byte {
	var out bytes.Buffer
	inStr, esc := false, false
	for _, c := range b {
		switch {
		case inStr && c < 0x20:
			fmt.Fprintf(&out, `\u%04x`, c)
			continue
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// plainForDigest reports whether the reference digest can be trusted for
// body: members named once each (encoding/json would merge repeated
// ones differently), no control characters outside strings.
func plainForDigest(body []byte) bool {
	return json.Valid(escapeControls(body)) && noRepeats(body)
}

// noRepeats reports whether no object of body names a member twice.
func noRepeats(b []byte) bool {
	ok := true
	var walk func(v []byte)
	walk = func(v []byte) {
		seen := map[string]bool{}
		if protocol.ObjectFields(v, func(k, val []byte) error {
			if seen[string(k)] {
				ok = false
			}
			seen[string(k)] = true
			walk(val)
			return nil
		}) != nil {
			_ = protocol.ArrayElements(v, func(e []byte) error { walk(e); return nil })
		}
	}
	walk(b)
	return ok
}

// FuzzScanMatchesReference: on any bytes, cut anywhere, the streaming
// scanner concludes what the buffered walk with encoding/json and
// encoding/base64 concludes (outcome, code, sizes, padding, entries, MIME,
// cache hints, shape findings), with the request's uri known early or
// late; and a usable answer's digest is the sha256 of what encoding/json
// and encoding/base64 decode. json.Valid is the oracle of syntax: the
// scanner finds a fault exactly when json.Valid rejects the bytes, for
// every input whose value is an object nested less than protocol.MaxDepth
// deep (a value of another kind is a fault for the scanner whatever
// json.Valid says, and nesting near the bound, which encoding/json allows
// to 10000, may be), so an answer json.Valid rejects is never ok.
func FuzzScanMatchesReference(f *testing.F) {
	png := base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 40)...))
	for _, s := range scanSeeds(png) {
		f.Add([]byte(s), []byte{3, 7, 1, 50}, byte(0))
		f.Add([]byte(s), []byte{9, 2, 30}, byte(4))
	}
	f.Fuzz(func(t *testing.T, body, cuts []byte, mode byte) {
		modern, late, digest := mode&1 != 0, mode&2 != 0, mode&4 == 0
		want := classifyRef(body, "u", modern)
		got := scanChunked(body, cuts, "u", late, modern, digest)
		if !sameVerdict(got, want) {
			t.Fatalf("streaming %+v\n   buffered %+v\n   body %q cuts %v", got, want, body, cuts)
		}
		valid := json.Valid(body)
		sound := scanSyntaxOK(body, cuts)
		if sound && !valid || !sound && valid && isObjectNested(body, protocol.MaxDepth) {
			t.Fatalf("the scanner finds the syntax sound: %v, json.Valid: %v\n   %+v\n   body %q cuts %v", sound, valid, got, body, cuts)
		}
		if !valid && got.Outcome != stats.Protocol {
			t.Fatalf("%v on bytes json.Valid rejects: %q", got.Outcome, body)
		}
		if got.Outcome == stats.OK && digest && plainForDigest(body) {
			if d := refDigest(body); d != got.Digest {
				t.Fatalf("digest %s, reference %s\n   body %q", got.Digest, d, body)
			}
		}
		if (got.Outcome != stats.OK || !digest) && got.Digest != "" {
			t.Fatalf("digest %q on a %v answer (asked: %v)", got.Digest, got.Outcome, digest)
		}
	})
}

// scanSeeds are answers that reach every rule of the classification.
func scanSeeds(png string) []string {
	return []string{
		`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"u","mimeType":"text/markdown","text":"é \"q\"\n\ud83d\ude00 \ud800x \udc00"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"u","mimeType":"image/png","blob":"` + png + `"}]}}`,
		`{"result":{"contents":[{"uri":"u","mimeType":"image/jpeg","blob":"` + png + `"}]},"id":1}`,
		`{"result":{"contents":[{"uri":"u","blob":"ab\/d"},{"uri":"v","blob":"YQ=="}]}}`,
		`{"result":{"contents":[{"uri":"u","blob":"YR=="}]}}`,
		`{"result":{"contents":[{"uri":"u","blob":"YQ","text":"a"}]}}`,
		`{"result":{"contents":[{"uri":"x"}, 5, {"text":7}]}}`,
		`{"result":{"contents":[]}}`,
		`{"result":{"contents":null,"ttlMs":5,"cacheScope":"user"}}`,
		`{"result":{"contents":{},"ttlMs":-1}}`,
		`{"result":{"resultType":"input_required","ttlMs":1e3}}`,
		`{"result":5}`,
		`{"result":{"contents":[{"uri":"u","mimeType":"application/json","text":"{\"a\":[1,\"\\u00e9\"]}"}]}}`,
		`{"result":{"contents":[{"uri":"u","text":"nope","mimeType":"application/json"}]}}`,
		`{"result":{"contents":[{"uri":"u","mimeType":"image/png","text":"abc"}]}}`,
		`{"result":{"contents":[{"uri":"u","text":"a","text":"bb"}]},"result":{"contents":[{"uri":"u","text":"c"}]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"nope"}}`,
		`{"id":1,"error":{"code":-32602,"message":"Resource not found"},"result":{}}`,
		`{"error":{"code":"x"}}`,
		`{"id":1}`,
		`  {"result":{"contents":[{"uri":"u","text":"\u0041\\"}]}} trailing`,
		`{"result":{"contents":[{"uri":"u","text":"a"}],"n":[0,-0.5e-1,1E+2]},"id":1}` + " \r\n",
		`{"id":01,"result":{"contents":[{"uri":"u","text":"a` + "\t" + `"}],"n":1-2e}}`,
		`{"result":{"contents":[{"uri":"u","text":"` + "\xe2\x82\xac\xff\xe2\x82" + `"}]}}`,
		`[1,2]`,
		`{"a":[[[{"b":-1.5e+3,"c":true,"d":false,"e":null}]]],"result":{"contents":[{"uri":"u","text":""}]}}`,
	}
}

// TestScanEveryCut: each seed answer cut in two at every byte, and fed a
// byte at a time, is classified as the buffered walk classifies it whole
// (escapes, surrogate pairs, UTF-8 sequences and padding split anywhere),
// with the uri known early and late, the digest on and off.
func TestScanEveryCut(t *testing.T) {
	png := base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 40)...))
	ones := bytes.Repeat([]byte{1}, 1<<12)
	for _, seed := range scanSeeds(png) {
		body := []byte(seed)
		want := classifyRef(body, "u", false)
		for cut := 0; cut <= min(len(body), 255); cut++ { // a chunk length is a byte
			for mode := range 4 {
				late, digest := mode&1 != 0, mode&2 != 0
				got := scanChunked(body, []byte{byte(cut)}, "u", late, false, digest)
				if !sameVerdict(got, want) {
					t.Fatalf("cut at %d (late %v digest %v): %+v\nwant %+v\nbody %q", cut, late, digest, got, want, body)
				}
			}
		}
		if got := scanChunked(body, ones, "u", false, false, true); !sameVerdict(got, want) {
			t.Fatalf("a byte at a time: %+v\nwant %+v\nbody %q", got, want, body)
		}
		if want.Outcome == stats.OK && plainForDigest(body) {
			whole := scanChunked(body, nil, "u", false, false, true)
			if d := refDigest(body); whole.Digest != d || scanChunked(body, ones, "u", true, false, true).Digest != d {
				t.Fatalf("digest %s, want %s; body %q", whole.Digest, d, body)
			}
		}
	}
}
