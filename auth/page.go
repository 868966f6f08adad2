package auth

import (
	"encoding/json"
	"html"
	"mime"
	"regexp"
	"strings"
)

// What a headless login makes of the page an authorization server showed
// instead of redirecting to readbench: its reason, quoted, when it is an
// error (an OAuth error object, or an HTML page that names error and
// error_description, as oidc-provider's does), or what kind of page it
// is, so that the person knows to log in with a browser.

// maxReason bounds a quoted reason: a page can be long, a reason is not.
const maxReason = 240

var (
	tagRE      = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>|<[^>]*>`)
	spaceRE    = regexp.MustCompile(`\s+`)
	errDescRE  = regexp.MustCompile(`\berror_description\s*[:=]\s*(.+?)(?:\s+\w+\s*:|$)`)
	errCodeRE  = regexp.MustCompile(`\berror\s*[:=]\s*([a-z_]+)`)
	titleRE    = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	passwordRE = regexp.MustCompile(`(?i)<input[^>]*type\s*=\s*["']?password`)
	formRE     = regexp.MustCompile(`(?i)<form\b`)
)

// pageReason is the reason an error page gives, quoted, or "".
func pageReason(contentType string, body []byte) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") {
		var e struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			return quoteReason(strings.TrimSpace(e.Error + ": " + e.Description))
		}
		return ""
	}
	text := pageText(body)
	code := ""
	if m := errCodeRE.FindStringSubmatch(text); m != nil {
		code = m[1]
	}
	if m := errDescRE.FindStringSubmatch(text); m != nil {
		if code != "" {
			return quoteReason(code + ": " + strings.TrimSpace(m[1]))
		}
		return quoteReason(strings.TrimSpace(m[1]))
	}
	if code != "" {
		return quoteReason(code)
	}
	if m := titleRE.FindSubmatch(body); m != nil {
		if t := strings.TrimSpace(html.UnescapeString(string(m[1]))); t != "" {
			return quoteReason(t)
		}
	}
	return ""
}

// pageKind names a page that waits for a person: "a login page" (a form
// with a password field), "a page with a form (a consent page?)", or "".
func pageKind(body []byte) string {
	switch {
	case passwordRE.Match(body):
		return "a login page"
	case formRE.Match(body):
		return "a page with a form (a consent page?)"
	}
	return ""
}

// pageText is an HTML page's text, tags dropped and spaces collapsed.
func pageText(body []byte) string {
	return strings.TrimSpace(spaceRE.ReplaceAllString(html.UnescapeString(tagRE.ReplaceAllString(string(body), " ")), " "))
}

// quoteReason is s in quotes, cut at maxReason bytes.
func quoteReason(s string) string {
	if len(s) > maxReason {
		s = s[:maxReason] + "…"
	}
	return `"` + s + `"`
}
