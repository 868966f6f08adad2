package client

// The buffered classification that the streaming scanner replaced, kept
// as the oracle of the fuzz targets and of the scan benchmarks: it walks
// a whole answer with protocol.ObjectFields, decodes small fields with
// encoding/json and blobs with encoding/base64, after json.Valid has
// judged the answer as encoding/json would.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// refUnusable is v ended as an answer that cannot be used, as decide ends
// one.
func refUnusable(v Answer, why string) Answer {
	v.decide(unusableAnswer(why))
	return v
}

// refError is v ended as the JSON-RPC error raw, as decide ends one.
func refError(v Answer, raw []byte, modern bool) Answer {
	v.decide(rpcEnding(raw, modern))
	return v
}

// classifyRef says what a resources/read answer is. It walks the bytes once:
// the envelope, each contents entry's fields, base64 validity and the
// decoded sizes, without building Go values for the payloads. modern is
// the session's era (it decides what -32602 means).
func classifyRef(body []byte, uri string, modern bool) Answer {
	var v Answer
	if !json.Valid(body) {
		return refUnusable(v, "answer is not valid JSON")
	}
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
		return refUnusable(v, "answer is not a JSON object: "+err.Error())
	case rpcErr != nil:
		return refError(v, rpcErr, modern)
	case result == nil:
		return refUnusable(v, "answer has neither result nor error")
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
		return refUnusable(v, "result is not an object")
	}
	if resultType == protocol.ResultInputRequired {
		v.Outcome = stats.InputRequired
		return v
	}
	if contents == nil || bytes.Equal(contents, []byte("null")) {
		return refUnusable(v, "result has no contents array")
	}
	usable := true
	err = protocol.ArrayElements(contents, func(e []byte) error {
		v.Entries++
		if !checkEntryRef(e, uri, &v) {
			usable = false
		}
		return nil
	})
	if err != nil {
		return refUnusable(v, "contents is not an array")
	}
	switch {
	case v.Entries == 0:
		v.Shape.EmptyContents++
		return refUnusable(v, "empty contents")
	case !usable:
		return refUnusable(v, v.Detail)
	}
	// A folder read answers one URI with many documents, each under its own
	// URI: only a single entry that names another URI is a rewrite.
	if v.Entries > 1 {
		v.Shape.MultiEntry++
		v.Shape.URIRewritten = 0
	}
	v.Outcome = stats.OK
	return v
}

// checkEntry checks one contents entry and adds its sizes; false means the
// entry cannot be used (neither or both payload fields, bad base64).
func checkEntryRef(e []byte, uri string, v *Answer) bool {
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
	n, pad, head, ok := decodedLenRef(blob)
	if !ok {
		v.Shape.BadBase64++
		v.Detail = "blob is not valid padded base64"
		return false
	}
	v.DiskBytes += n
	v.Base64Bytes += int64(len(blob) - 2)
	v.Base64Padding += pad
	if mimeType != "" && !mimeAgrees(mimeType, head) {
		v.Shape.MIMEMismatch++
	}
	return true
}

// decodedLen validates a raw JSON string token as standard padded base64
// and returns the decoded length and the first decoded bytes (for magic
// sniffing). JSON may escape '/' as "\/": such rare blobs are unescaped
// first.
func decodedLenRef(raw []byte) (n, padding int64, head []byte, ok bool) {
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
	if !allBase64Ref(s[:len(s)-pad]) {
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

// allBase64 reports whether every byte is in the standard alphabet. It ORs
// table lookups without branching, eight bytes a round: multi-megabyte
// blobs are checked at memory speed rather than at branch-predictor speed.
func allBase64Ref(s []byte) bool {
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
