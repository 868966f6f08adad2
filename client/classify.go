package client

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// Kind is what an answer to resources/read is, as far as the answer
// itself can tell: a load run maps it to a read outcome (adding timeout,
// cancelled, transport and the class's expectation, which only the run
// knows). String gives the outcome name used in results.
type Kind uint8

// The kinds of answer; see docs/measurement.md (outcomes).
const (
	OK            Kind = iota // a usable answer
	NotFound                  // -32002, or -32602 from a 2026-07-28 server or worded so
	InvalidParams             // -32602
	Internal                  // -32603
	RPCError                  // any other JSON-RPC error code
	InputRequired             // resultType input_required
	Unusable                  // an answer that cannot be used: the protocol outcome
)

var kindNames = [...]string{"ok", "not_found", "invalid_params", "internal", "rpc_error", "input_required", "protocol"}

// String is the outcome name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Shape counts one answer's findings of the response-shape checks (see
// docs/measurement.md, shape). Its fields match the run's counters in
// stats, which knows nothing of MCP, so a run converts it as it is.
type Shape struct {
	Neither, Both, URIRewritten, MIMEMissing, MIMEMismatch, BadBase64, EmptyContents, MultiEntry int64
}

// Verdict is what Classify concluded from one answer.
type Verdict struct {
	Kind        Kind
	Code        int // JSON-RPC error code, when the answer was an error
	DiskBytes   int64
	Base64Bytes int64
	Padding     int64 // '=' characters closing the blobs
	Entries     int
	MIME        string // the first entry's mimeType ("" when none)
	HasTTL      bool
	TTLMs       int64
	CacheScope  string
	Shape       Shape
	Detail      string // why the answer is unusable, for diagnostics
	// Digest is "sha256:<64 hex>" of the decoded content of every entry in
	// order (text as its UTF-8 bytes, blob base64-decoded), when the read
	// asked for it (WithDigest) and the answer is usable; "" otherwise.
	Digest string
}

// Classify says what a resources/read answer is. It walks the bytes once:
// the envelope, each contents entry's fields, base64 validity and the
// decoded sizes, without building Go values for the payloads. modern is
// the session's era (it decides what -32602 means).
func Classify(body []byte, uri string, modern bool) Verdict {
	var v Verdict
	var result, rpcErr []byte
	err := protocol.ObjectFields(body, func(k, val []byte) error {
		switch string(k) {
		case "result":
			result = val
		case "error":
			rpcErr = val
		}
		return nil
	})
	switch {
	case err != nil:
		return protocolVerdict(v, "answer is not a JSON object: "+err.Error())
	case rpcErr != nil:
		return errorVerdict(v, rpcErr, modern)
	case result == nil:
		return protocolVerdict(v, "answer has neither result nor error")
	}
	var contents []byte
	var resultType string
	err = protocol.ObjectFields(result, func(k, val []byte) error {
		switch string(k) {
		case "contents":
			contents = val
		case "resultType":
			_ = json.Unmarshal(val, &resultType)
		case "ttlMs":
			v.HasTTL = json.Unmarshal(val, &v.TTLMs) == nil && v.TTLMs >= 0
		case "cacheScope":
			_ = json.Unmarshal(val, &v.CacheScope)
		}
		return nil
	})
	if err != nil {
		return protocolVerdict(v, "result is not an object")
	}
	if resultType == protocol.ResultInputRequired {
		v.Kind = InputRequired
		return v
	}
	if contents == nil || bytes.Equal(contents, []byte("null")) {
		return protocolVerdict(v, "result has no contents array")
	}
	usable := true
	err = protocol.ArrayElements(contents, func(e []byte) error {
		v.Entries++
		if !checkEntry(e, uri, &v) {
			usable = false
		}
		return nil
	})
	if err != nil {
		return protocolVerdict(v, "contents is not an array")
	}
	switch {
	case v.Entries == 0:
		v.Shape.EmptyContents++
		return protocolVerdict(v, "empty contents")
	case !usable:
		return protocolVerdict(v, v.Detail)
	}
	// A folder read answers one URI with many documents, each under its own
	// URI: only a single entry that names another URI is a rewrite.
	if v.Entries > 1 {
		v.Shape.MultiEntry++
		v.Shape.URIRewritten = 0
	}
	v.Kind = OK
	return v
}

// checkEntry checks one contents entry and adds its sizes; false means the
// entry cannot be used (neither or both payload fields, bad base64).
func checkEntry(e []byte, uri string, v *Verdict) bool {
	var gotURI, mimeType string
	var text, blob []byte
	err := protocol.ObjectFields(e, func(k, val []byte) error {
		switch string(k) {
		case "uri":
			_ = json.Unmarshal(val, &gotURI)
		case "mimeType":
			_ = json.Unmarshal(val, &mimeType)
		case "text":
			text = val
		case "blob":
			blob = val
		}
		return nil
	})
	if err != nil {
		v.Detail = "contents entry is not an object"
		return false
	}
	if v.Entries == 1 {
		v.MIME = strings.TrimSpace(mimeType)
	}
	if gotURI != uri {
		v.Shape.URIRewritten++
	}
	if mimeType == "" {
		v.Shape.MIMEMissing++
	}
	switch {
	case text == nil && blob == nil:
		v.Shape.Neither++
		v.Detail = "entry has neither text nor blob"
		return false
	case text != nil && blob != nil:
		v.Shape.Both++
		v.Detail = "entry has both text and blob"
		return false
	case text != nil:
		n, err := protocol.StringLen(text)
		if err != nil || text[0] != '"' {
			v.Detail = "text is not a string"
			return false
		}
		v.DiskBytes += n
		if mimeType != "" && !textAgrees(mimeType, text) {
			v.Shape.MIMEMismatch++
		}
		return true
	}
	n, pad, head, ok := decodedLen(blob)
	if !ok {
		v.Shape.BadBase64++
		v.Detail = "blob is not valid padded base64"
		return false
	}
	v.DiskBytes += n
	v.Base64Bytes += int64(len(blob) - 2)
	v.Padding += pad
	if mimeType != "" && !mimeAgrees(mimeType, head) {
		v.Shape.MIMEMismatch++
	}
	return true
}

// decodedLen validates a raw JSON string token as standard padded base64
// and returns the decoded length and the first decoded bytes (for magic
// sniffing). JSON may escape '/' as "\/": such rare blobs are unescaped
// first.
func decodedLen(raw []byte) (n, padding int64, head []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return 0, 0, nil, false
	}
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') >= 0 {
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return 0, 0, nil, false
		}
		s = []byte(str)
	}
	if len(s)%4 != 0 {
		return 0, 0, nil, false
	}
	pad := 0
	for pad < 2 && len(s) > pad && s[len(s)-1-pad] == '=' {
		pad++
	}
	if !allBase64(s[:len(s)-pad]) {
		return 0, 0, nil, false
	}
	n = int64(len(s)/4*3 - pad)
	h := s[:min(len(s), 24)]
	head, err := base64.StdEncoding.DecodeString(string(h))
	if err != nil && len(s) > 24 {
		return 0, 0, nil, false
	}
	if pad > 0 && len(s) >= 4 { // the last group must decode with zero bits
		if _, err := base64.StdEncoding.Strict().DecodeString(string(s[len(s)-4:])); err != nil {
			return 0, 0, nil, false
		}
	}
	return n, int64(pad), head, true
}

// invalidBase64 has a 1 for every byte outside the standard alphabet.
var invalidBase64 = func() (t [256]byte) {
	for i := range t {
		c := byte(i)
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			t[i] = 1
		}
	}
	return t
}()

// allBase64 reports whether every byte is in the standard alphabet. It ORs
// table lookups without branching, eight bytes a round: multi-megabyte
// blobs are checked at memory speed rather than at branch-predictor speed.
func allBase64(s []byte) bool {
	var bad byte
	for len(s) >= 8 {
		bad |= invalidBase64[s[0]] | invalidBase64[s[1]] | invalidBase64[s[2]] | invalidBase64[s[3]] |
			invalidBase64[s[4]] | invalidBase64[s[5]] | invalidBase64[s[6]] | invalidBase64[s[7]]
		s = s[8:]
	}
	for _, c := range s {
		bad |= invalidBase64[c]
	}
	return bad == 0
}

// mimeAgrees sniffs magic bytes: a declared binary type whose content
// begins with another type's signature is a mismatch. Unknown content
// agrees with anything (absence of a signature proves nothing).
func mimeAgrees(declared string, head []byte) bool {
	sniffed := sniff(head)
	if sniffed == "" {
		return true
	}
	declared = strings.ToLower(strings.TrimSpace(strings.SplitN(declared, ";", 2)[0]))
	return declared == sniffed || (sniffed == "application/zip" && strings.HasSuffix(declared, "+zip"))
}

// textAgrees checks a text entry against its declared type: a binary type
// cannot arrive as text, and JSON must be valid JSON (a server that sends
// prose as application/json tells every host to parse it). Only JSON
// entries are decoded, so the check costs nothing for other text.
func textAgrees(declared string, raw []byte) bool {
	m := strings.ToLower(strings.TrimSpace(strings.SplitN(declared, ";", 2)[0]))
	switch {
	case strings.HasPrefix(m, "image/"), strings.HasPrefix(m, "audio/"), strings.HasPrefix(m, "video/"),
		m == "application/pdf", m == "application/zip", m == "application/gzip", m == "application/octet-stream":
		return false
	case m == "application/json" || strings.HasSuffix(m, "+json"):
		var s string
		return json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s))
	}
	return true
}

func sniff(h []byte) string {
	switch {
	case bytes.HasPrefix(h, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(h, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg"
	case bytes.HasPrefix(h, []byte("GIF87a")), bytes.HasPrefix(h, []byte("GIF89a")):
		return "image/gif"
	case len(h) >= 12 && bytes.HasPrefix(h, []byte("RIFF")) && string(h[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(h, []byte("%PDF-")):
		return "application/pdf"
	case bytes.HasPrefix(h, []byte("PK\x03\x04")):
		return "application/zip"
	case bytes.HasPrefix(h, []byte{0x1F, 0x8B}):
		return "application/gzip"
	}
	return ""
}

// errorVerdict maps a JSON-RPC error to an outcome. Servers disagree on
// the code for a missing resource: -32002 (legacy), -32602 (2026-07-28,
// and the Go SDK in every era), or a code of their own. So: -32002 is not
// found; -32602 is not found from a 2026-07-28 server or when its message
// says so, else invalid params; any other code whose message says "not
// found" is not found too. -32603 is internal whatever it says.
func errorVerdict(v Verdict, raw []byte, modern bool) Verdict {
	var e protocol.Error
	if json.Unmarshal(raw, &e) != nil {
		return protocolVerdict(v, "error is not a JSON-RPC error object")
	}
	v.Code = e.Code
	switch {
	case e.Code == protocol.CodeResourceNotFound:
		v.Kind = NotFound
	case e.Code == protocol.CodeInternal:
		v.Kind = Internal
	case e.Code == protocol.CodeInvalidParams && (modern || SaysNotFound(e.Message)):
		v.Kind = NotFound
	case e.Code == protocol.CodeInvalidParams:
		v.Kind = InvalidParams
	case SaysNotFound(e.Message):
		v.Kind = NotFound
	default:
		v.Kind = RPCError
	}
	return v
}

// SaysNotFound recognises the ways servers word a missing resource: the
// contract check accepts -32602 for not-found when the message says so.
func SaysNotFound(msg string) bool {
	m := strings.ToLower(msg)
	for _, w := range []string{"not found", "no such", "does not exist", "doesn't exist", "unknown resource"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

func protocolVerdict(v Verdict, why string) Verdict {
	v.Kind = Unusable
	v.Detail = why
	return v
}
