package targets

import (
	"regexp"
	"strings"
)

// Masked is what RedactSecrets puts in place of a secret.
const Masked = "xxxxx"

// RedactSecrets masks the secrets a target string carries in a standard
// place, wherever they appear, for what is saved and for error messages
// (which end up in CI logs):
//
//   - the password of every URL with user information
//     ("https://user:secret@host/mcp" -> "https://user:xxxxx@host/mcp"),
//     an argument such as --upstream=https://u:p@h included;
//   - the value of every NAME=value word whose name looks secret
//     (SecretSetting: "stdio:env MYSQL_PASS=hunter2 node server.js" ->
//     "stdio:env MYSQL_PASS=xxxxx node server.js"), a flag such as
//     --api-key=…, a quoted word ('DB_PASSWORD=a b') and a URL's query
//     parameter (?api_key=…, &access_token=…) included;
//   - the word after a secret flag (--token abc, --password abc,
//     --client-secret abc, --auth Bearer:abc; in a command, -p abc but
//     not -p 8080: flags.go) and a secret header word ("Authorization:
//     Bearer abc"), an authorization scheme kept in front of the mask.
//
// A secret given any other way (a bare argument of a server's own
// grammar) cannot be told from a file name; docs/workload.md says to
// export it instead.
func RedactSecrets(s string) string {
	if len(s) > 6 && strings.EqualFold(s[:6], "stdio:") {
		if t, err := Parse(s); err == nil {
			return t.Redacted()
		}
	}
	return redactText(s) // a URL (error messages of failing reads: thousands a second under overload)
}

// Redacted is String with its secrets masked (see RedactSecrets): what
// messages show and results save. A stdio command is masked word by word
// and joined again, so that no mask can break its quoting.
func (t Target) Redacted() string {
	if t.Kind != Stdio {
		return redactText(t.String())
	}
	return Target{Kind: Stdio, Argv: redactArgv(t.Argv)}.String()
}

// Name is how a message names the target: the embedded server by what it
// is, any other target in its redacted form.
func (t Target) Name() string {
	if t.Kind == Embedded || t.Kind == "" {
		return "the embedded simulated server"
	}
	return t.Redacted()
}

// redactText masks the secrets of a text that is not a stdio target: a
// URL, a message, one word of a command.
func redactText(s string) string {
	if strings.Contains(s, "@") {
		s = urlPassword.ReplaceAllString(s, "${1}"+Masked+"@")
	}
	if !strings.Contains(s, "=") {
		return redactFlags(s)
	}
	var b strings.Builder
	last := 0
	for _, m := range assignment.FindAllStringSubmatchIndex(s, -1) {
		lead, quote, name, from := s[m[0]:m[2]], s[m[2]:m[3]], s[m[4]:m[5]], m[1]
		if !(SecretSetting(name) || isQueryLead(lead) && secretParam(name)) || from < last {
			continue
		}
		var to int
		from, to, quote = quotedValue(s, from, lead, quote)
		to = withScheme(s, from, to, quote)
		if to == from {
			continue // NAME= with no value: nothing to hide
		}
		b.WriteString(s[last:from])
		b.WriteString(maskValue(s[from:to]))
		last = to
	}
	if last == 0 {
		return redactFlags(s)
	}
	b.WriteString(s[last:])
	return redactFlags(b.String())
}

// withScheme is where a secret value s[from:to] really ends: when it is
// an unquoted authorization scheme alone (AUTH=Bearer abc, --auth Bearer
// abc), the secret is the next word, and its end is the value's.
func withScheme(s string, from, to int, quote string) int {
	if quote != "" || to == from || to+1 >= len(s) || s[to] != ' ' || !bareScheme(s[from:to]) || strings.HasPrefix(s[to+1:], "--") {
		return to
	}
	if end := valueEnd(s, to+1, "", ""); end > to+1 {
		return end
	}
	return to
}

// quotedValue is where the value of an assignment that starts at s[from]
// begins and ends, and the quote it is in. A value may open its own quote
// after the '=' (NAME="a b", --api-key='k', as a shell reads them): the
// secret is what the quotes hold, up to the closing quote or the text's
// end; one escaped as %q writes it (NAME=\"a b\") ends at its escaped
// closing quote or at the message's own quote. Before, such a value was
// read as empty and shown whole.
func quotedValue(s string, from int, lead, quote string) (int, int, string) {
	switch rest := s[from:]; {
	case quote != "" || rest == "":
	case rest[0] == '"' || rest[0] == '\'':
		return from + 1, valueEnd(s, from+1, lead, rest[:1]), rest[:1]
	case strings.HasPrefix(rest, `\"`):
		from += 2
		for i := from; i < len(s); i++ {
			if s[i] == '"' {
				if s[i-1] == '\\' {
					return from, i - 1, `"`
				}
				return from, i, `"`
			}
		}
		return from, len(s), `"`
	}
	return from, valueEnd(s, from, lead, quote), quote
}

// SecretName reports whether an assignment's or a flag's name looks like
// it holds a secret: it contains PASS, PWD, SECRET, TOKEN, KEY or
// CREDENTIAL, in any case (MYSQL_PASS, PGPASSWORD, --api-key, GH_TOKEN).
// Masking a value that was no secret costs a placeholder in a saved
// result; missing one leaks it into CI logs, so the net is wide.
func SecretName(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range []string{"PASS", "PWD", "SECRET", "TOKEN", "KEY", "CREDENTIAL"} {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// valueEnd is where the value starting at s[from] ends: at its closing
// quote when the word opened with one (a backslash escaping the next
// character inside "…", as SplitArgs reads it), else at a space or a
// quote, a colon that ends the text or precedes a space ("…?token=abc:
// dial tcp") and, for a URL's query parameter (lead "?" or "&"), at the next
// parameter or the fragment. A message quotes a value as it likes, so
// the end is a guess; a target's words are masked one by one (Redacted).
func valueEnd(s string, from int, lead, quote string) int {
	query := isQueryLead(lead)
	for i := from; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quote == `"`:
			i++
		case quote != "":
			if c == quote[0] {
				return i
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'' || c == '"' || query && (c == '&' || c == '#'):
			return i
		case c == ':' && (i+1 == len(s) || s[i+1] == ' '):
			return i // a message's "…?token=abc: dial tcp …": the colon is the message's
		}
	}
	return len(s)
}

// urlPassword matches the scheme, user and password of a URL with user
// information (compiled once: error messages of failing reads redact
// with it, thousands a second under overload).
var urlPassword = regexp.MustCompile(`(//[^/?#@\s:]*:)[^/?#\s]*@`)

// assignment matches the start of a NAME=value word: at the start of the
// text or after a space, the "stdio:" of a target, or a URL query's '?'
// or '&'; an optional opening quote, an optional -- of a flag, the name
// and '='.
var assignment = regexp.MustCompile(`(?:^|[\s:?&#])(['"]?)(-{0,2}[A-Za-z_][A-Za-z0-9_.-]*)=`)

// isQueryLead reports whether an assignment's lead makes it a URL's
// query parameter ('?', '&') or a fragment's (OAuth's implicit grant
// returns #access_token=…&token_type=…).
func isQueryLead(lead string) bool { return lead == "?" || lead == "&" || lead == "#" }

// secretParam reports whether a URL parameter's name is a signature
// that works as a credential without a secret-sounding name: Azure's
// SAS sig, S3's X-Amz-Signature, GCS's X-Goog-Signature, a jwt. Only
// in a URL: in a command, SIG is a signal as often as a signature.
func secretParam(name string) bool {
	up := strings.ToUpper(name)
	return up == "SIG" || strings.HasSuffix(up, "_SIG") || strings.HasSuffix(up, "-SIG") ||
		strings.Contains(up, "SIGNATURE") || strings.Contains(up, "JWT")
}

// secretWord is the name of a word that is a NAME=value or --flag=value
// as a whole.
var secretWord = regexp.MustCompile(`^-{0,2}[A-Za-z_][A-Za-z0-9_.-]*$`)
