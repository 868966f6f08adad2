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
//     (SecretName: "stdio:env MYSQL_PASS=hunter2 node server.js" ->
//     "stdio:env MYSQL_PASS=xxxxx node server.js"), a flag such as
//     --api-key=…, a quoted word ('DB_PASSWORD=a b') and a URL's query
//     parameter (?api_key=…) included.
//
// A secret given any other way (a bare argument after --password) cannot
// be told from a file name; docs/workload.md says to export it instead.
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
	argv := make([]string, len(t.Argv))
	for i, a := range t.Argv {
		if name, value, ok := strings.Cut(a, "="); ok && value != "" && SecretName(name) && secretWord.MatchString(name) {
			argv[i] = name + "=" + Masked // the whole word's value, spaces and quotes included
			continue
		}
		argv[i] = redactText(a) // a URL, or NAME=value inside a word (sh -c 'PASS=… node s.js')
	}
	return Target{Kind: Stdio, Argv: argv}.String()
}

// redactText masks the secrets of a text that is not a stdio target: a
// URL, a message, one word of a command.
func redactText(s string) string {
	if strings.Contains(s, "@") {
		s = urlPassword.ReplaceAllString(s, "${1}"+Masked+"@")
	}
	if !strings.Contains(s, "=") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range assignment.FindAllStringSubmatchIndex(s, -1) {
		lead, quote, name, from := s[m[0]:m[2]], s[m[2]:m[3]], s[m[4]:m[5]], m[1]
		if !SecretName(name) || from < last {
			continue
		}
		to := valueEnd(s, from, lead, quote)
		if to == from {
			continue // NAME= with no value: nothing to hide
		}
		b.WriteString(s[last:from])
		b.WriteString(Masked)
		last = to
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
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
// quote and, for a URL's query parameter (lead "?" or "&"), at the next
// parameter or the fragment. A message quotes a value as it likes, so
// the end is a guess; a target's words are masked one by one (Redacted).
func valueEnd(s string, from int, lead, quote string) int {
	query := lead == "?" || lead == "&"
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
		}
	}
	return len(s)
}

// urlPassword matches the scheme, user and password of a URL with user
// information (compiled once: error messages of failing reads redact
// with it, thousands a second under overload).
var urlPassword = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^/?#@\s:]*:)[^/?#\s]*@`)

// assignment matches the start of a NAME=value word: at the start of the
// text or after a space, the "stdio:" of a target, or a URL query's '?'
// or '&'; an optional opening quote, an optional -- of a flag, the name
// and '='.
var assignment = regexp.MustCompile(`(?:^|[\s:?&])(['"]?)(-{0,2}[A-Za-z_][A-Za-z0-9_.-]*)=`)

// secretWord is the name of a word that is a NAME=value or --flag=value
// as a whole.
var secretWord = regexp.MustCompile(`^-{0,2}[A-Za-z_][A-Za-z0-9_.-]*$`)
