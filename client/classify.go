package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// classify says what a resources/read answer held whole in body is, as a
// whole read classifies one while it streams in (see scan.go): the
// envelope, each contents entry's fields, base64 validity and the decoded
// sizes, without building Go values for the payloads. modern is the
// session's era (it decides what -32602 means). Its tests and benchmarks
// measure the scanner through it.
func classify(body []byte, uri string, modern bool) Answer {
	return scanWhole(body, uri, modern, false)
}

// scanWhole scans one whole message, digesting its document when digest
// is true, and decides what it is.
func scanWhole(body []byte, uri string, modern, digest bool) Answer {
	var s answerScanner
	s.reset(true, uri, digest)
	s.feed(body)
	var a Answer
	s.answer(&a, uri, modern)
	return a
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

// rpcEnding is the ending of a resources/read answered by the JSON-RPC
// error raw, by the session's era.
func rpcEnding(raw []byte, modern bool) ending {
	var e protocol.Error
	if json.Unmarshal(raw, &e) != nil {
		return unusableAnswer("error is not a JSON-RPC error object")
	}
	ctx := legacyRead
	if modern {
		ctx = modernRead
	}
	return ending{rpc: true, code: e.Code, message: e.Message, answered: ctx,
		detail: fmt.Sprintf("JSON-RPC error %d: %s", e.Code, clipDetail(e.Message))}
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

// SaysResourceMissing recognises a -32601 (Method not found) whose message
// is about the resource, not the method: fastmcp 4.20.16 answers a missing
// resource with -32601 "Resource not found: 'URI'. Available resources:
// …". The message says the resource is missing (SaysNotFound) and names
// no method: "Method not found", the SDKs' own message, says "not found"
// too, and mcp-go's "resources not supported" says nothing missing. A
// message that quotes a URI with "method" in it is read as the method's:
// the outcome it keeps, method_not_found, is the one the code says.
func SaysResourceMissing(msg string) bool {
	return SaysNotFound(msg) && !strings.Contains(strings.ToLower(msg), "method")
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
