package targets

import (
	"regexp"
	"strings"
)

// Redacted is String with the password of any URL in it masked: what
// messages show.
func (t Target) Redacted() string { return RedactURLs(t.String()) }

// RedactURLs masks the password of every URL with user information in s
// ("https://user:secret@host/mcp" -> "https://user:xxxxx@host/mcp"), the
// one secret a target string carries in a standard place, wherever it
// appears (an argument such as --upstream=https://u:p@h included): for
// what is saved, and for error messages, which end up in CI logs.
func RedactURLs(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	return urlPassword.ReplaceAllString(s, "${1}xxxxx@")
}

// urlPassword matches the scheme, user and password of a URL with user
// information (compiled once: error messages of failing reads redact
// with it, thousands a second under overload).
var urlPassword = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^/?#@\s:]*:)[^/?#\s]*@`)
