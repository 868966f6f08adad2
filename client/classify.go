package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// Kind is what the answer to a read is, as far as the client can tell,
// whichever way the document was read (resources/read, the read tool, a
// plain GET): a load run maps it to a read outcome (adding timeout,
// cancelled and the class's expectation, which only the run knows). It is
// decided here and nowhere else: errorKind for a JSON-RPC error,
// toolCodeKind for a read tool's isError code, statusKind for an HTTP
// status. String gives the outcome name used in results.
type Kind uint8

// The kinds of answer; see docs/measurement.md (outcomes).
const (
	OK             Kind = iota // a usable answer
	NotFound                   // -32002, or -32602 from a 2026-07-28 server or worded so
	InvalidParams              // -32602
	Internal                   // -32603
	RPCError                   // any other JSON-RPC error code
	MethodNotFound             // -32601: the server does not implement the method read with
	InputRequired              // resultType input_required
	Unusable                   // an answer that cannot be used: the protocol outcome
	Transport                  // no answer: the connection failed (Answer only)
	Unauthorized               // the server refused the read's token after one renewal, or none could be had, or refused a session without tokens (Answer only)
)

var kindNames = [...]string{"ok", "not_found", "invalid_params", "internal", "rpc_error", "method_not_found", "input_required", "protocol", "transport", "unauthorized"}

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

// Classify says what a resources/read answer held whole in body is, as
// Session.Read classifies one while it streams in (see scan.go): the
// envelope, each contents entry's fields, base64 validity and the decoded
// sizes, without building Go values for the payloads. modern is the
// session's era (it decides what -32602 means).
func Classify(body []byte, uri string, modern bool) Verdict {
	var s answerScanner
	s.reset(true, uri, false)
	s.feed(body)
	return s.verdict(uri, modern)
}

// mimeAgrees sniffs magic bytes: a declared binary type whose content
// begins with another type's signature is a mismatch. Unknown content
// agrees with anything (absence of a signature proves nothing).
func mimeAgrees(declared string, head []byte) bool {
	sniffed := sniff(head)
	if sniffed == "" {
		return true
	}
	declared = mediaType(declared)
	return declared == sniffed || (sniffed == "application/zip" && strings.HasSuffix(declared, "+zip"))
}

// textAgrees checks a text entry against its declared type: a binary type
// cannot arrive as text, and JSON must be valid JSON (a server that sends
// prose as application/json tells every host to parse it). Only JSON
// entries are decoded, so the check costs nothing for other text.
func textAgrees(declared string, raw []byte) bool {
	m := mediaType(declared)
	switch {
	case strings.HasPrefix(m, "image/"), strings.HasPrefix(m, "audio/"), strings.HasPrefix(m, "video/"),
		m == "application/pdf", m == "application/zip", m == "application/gzip", m == "application/octet-stream":
		return false
	case isJSONType(m):
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

// errorVerdict classifies a resources/read answer that is a JSON-RPC
// error (errorKind, by the session's era).
func errorVerdict(v Verdict, raw []byte, modern bool) Verdict {
	var e protocol.Error
	if json.Unmarshal(raw, &e) != nil {
		return protocolVerdict(v, "error is not a JSON-RPC error object")
	}
	v.Code = e.Code
	v.Detail = fmt.Sprintf("JSON-RPC error %d: %s", e.Code, clipDetail(e.Message))
	ctx := legacyRead
	if modern {
		ctx = modernRead
	}
	v.Kind = errorKind(e.Code, e.Message, ctx)
	return v
}

// errorContext is what a JSON-RPC error answered: what -32602 and a
// server's own codes mean depends on it.
type errorContext uint8

const (
	legacyRead errorContext = iota // resources/read in the handshake era
	modernRead                     // resources/read in the 2026-07-28 era
	toolCall                       // a call of the read tool
)

// errorKind is the one rule for a JSON-RPC error answering a read.
// Servers disagree on the code for a missing resource: -32002 (legacy),
// -32602 (2026-07-28, and the Go SDK in every era), or a code of their
// own. The code decides first, the words last: -32601 is a method the
// server does not implement (its message, "Method not found", says
// nothing about the resource); -32002 is not found; -32603 is internal
// whatever it says;
// -32602 answering resources/read is not found from a 2026-07-28 server
// or when its message says so (SaysNotFound), else invalid params; any
// other code answering resources/read whose message says "not found" is
// not found too. A tool call's -32602 is not found only when worded so
// (for a tool it also means arguments the tool refused), and a tool's own
// code is an RPC error whatever its words.
func errorKind(code int, message string, ctx errorContext) Kind {
	switch {
	case code == protocol.CodeMethodNotFound:
		return MethodNotFound
	case code == protocol.CodeResourceNotFound:
		return NotFound
	case code == protocol.CodeInternal:
		return Internal
	case code == protocol.CodeInvalidParams && (ctx == modernRead || SaysNotFound(message)):
		return NotFound
	case code == protocol.CodeInvalidParams:
		return InvalidParams
	case ctx != toolCall && SaysNotFound(message):
		return NotFound
	}
	return RPCError
}

// toolCodeKind is the kind of a read tool's isError code.
func toolCodeKind(code string) Kind {
	switch code {
	case "not_found":
		return NotFound
	case "invalid_path":
		return InvalidParams
	case "internal":
		return Internal
	}
	return RPCError
}

// statusKind is the kind of an HTTP status that ends a plain HTTP read.
func statusKind(status int) Kind {
	switch {
	case status == http.StatusNotFound:
		return NotFound
	case status == http.StatusBadRequest || status == http.StatusRequestedRangeNotSatisfiable:
		return InvalidParams
	case status >= 500:
		return Internal
	}
	return Unusable
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

// clipDetail keeps a server's error message short enough for a log line
// (a hostile server's message could be megabytes).
func clipDetail(m string) string {
	const n = 300
	if r := []rune(m); len(r) > n {
		return string(r[:n]) + "…"
	}
	return m
}
