package protocol

import (
	"encoding/base64"
	"strings"
)

const (
	base64Prefix = "=?base64?"
	base64Suffix = "?="
)

// EncodeHeaderValue renders a value (a URI for Mcp-Name) for an HTTP header.
// Plain printable ASCII without leading or trailing spaces goes as is;
// anything else is sent as =?base64?<base64 of the UTF-8>?=, as the
// 2026-07-28 Streamable HTTP transport says.
func EncodeHeaderValue(v string) string {
	if isPlainHeaderValue(v) {
		return v
	}
	return base64Prefix + base64.StdEncoding.EncodeToString([]byte(v)) + base64Suffix
}

// DecodeHeaderValue reverses EncodeHeaderValue; ok is false when a value
// carries the base64 sentinel but is not valid base64.
func DecodeHeaderValue(v string) (string, bool) {
	if !strings.HasPrefix(v, base64Prefix) || !strings.HasSuffix(v, base64Suffix) || len(v) < len(base64Prefix)+len(base64Suffix) {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(v[len(base64Prefix) : len(v)-len(base64Suffix)])
	if err != nil {
		return "", false
	}
	return string(b), true
}

func isPlainHeaderValue(v string) bool {
	if v == "" {
		return true
	}
	if v[0] == ' ' || v[len(v)-1] == ' ' || v[0] == '\t' || v[len(v)-1] == '\t' {
		return false
	}
	if strings.HasPrefix(v, base64Prefix) && strings.HasSuffix(v, base64Suffix) {
		return false // would be mistaken for an encoded value
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			return false
		}
	}
	return true
}
