package targets

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A secret is often given to a stdio server as a flag's value, in a word
// of its own (server --token abc, --auth Bearer:abc) or after '='
// (--password=abc). This file masks those values, in a command's words
// (Target.Redacted) and in a text (redactText), and tells a command read
// back from a result whose words still hold the mask (MaskedArgs).

// SecretSetting reports whether a NAME=value word, a --flag or a header
// named name carries a secret in its value: its name looks secret
// (SecretName) and does not name where a secret is kept rather than the
// secret itself (--token-file, PASSWORD_ENV, --key-path, TOKEN_URL), or it
// is an authorization (--auth, --authorization, AUTH, BASIC_AUTH,
// Proxy-Authorization). Leading dashes are ignored.
func SecretSetting(name string) bool {
	n := strings.ToUpper(strings.TrimLeft(name, "-"))
	if n == "AUTH" || strings.HasSuffix(n, "-AUTH") || strings.HasSuffix(n, "_AUTH") || strings.Contains(n, "AUTHORIZATION") {
		return true
	}
	if !SecretName(n) {
		return false
	}
	for _, ref := range []string{"FILE", "PATH", "DIR", "ENV", "VAR", "URL", "URI", "ENDPOINT"} {
		if strings.HasSuffix(n, ref) {
			return false
		}
	}
	return true
}

// maskValue masks a secret value, keeping an authorization scheme in
// front of it ("Bearer:abc" -> "Bearer:xxxxx", "Bearer abc" -> "Bearer
// xxxxx") so that the masked command still says what kind of credential
// it was given.
func maskValue(v string) string {
	if m := schemePrefix.FindString(v); m != "" && len(m) < len(v) {
		return m + Masked
	}
	return Masked
}

// schemePrefix is an HTTP authorization scheme at the start of a value,
// with its separator (a colon, as some servers' flags take it, or spaces).
var schemePrefix = regexp.MustCompile(`^(?i:bearer|basic|token|digest|apikey)(?::|[ \t]+)`)

// bareScheme reports whether a word is an authorization scheme alone
// (--auth Bearer abc, written as three words): the secret is the next word.
func bareScheme(w string) bool {
	return schemePrefix.MatchString(w+" ") && !strings.ContainsAny(w, ": \t")
}

// headerWord matches a word that is an HTTP header ("Authorization: Bearer
// abc", "X-Api-Key:abc"), as servers and proxies such as mcp-remote take
// them with --header.
var headerWord = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*):([ \t]*)(.+)$`)

// redactArgv masks the secrets of a command's words (Target.Redacted):
// each word alone (a secret NAME=value or --flag=value, a secret header,
// a URL's password, what redactText finds inside a word such as sh -c's),
// and the word after a secret flag (--token abc, --password abc,
// --client-secret abc, --api-key abc, --auth Bearer abc). -p takes a secret
// too (mysql-style servers), except where it is plainly something else:
// a port, an address mapping or a version (-p 8080, -p 8080:80, -p 3.12),
// and the --package of a package runner (npx -p pkg srv, npm exec -p pkg),
// up to the word that names the package it runs. A value that starts
// with "--" is the next flag, not a value: the secret flag was a switch.
func redactArgv(argv []string) []string {
	out := make([]string, len(argv))
	runner := runnerEnd(argv)
	for i := 0; i < len(argv); i++ {
		out[i] = redactWord(argv[i])
		if i+1 >= len(argv) || strings.HasPrefix(argv[i+1], "--") {
			continue
		}
		a, v := argv[i], argv[i+1]
		switch {
		case a == "-p" && (i < runner || portLike.MatchString(v) || strings.HasPrefix(v, "-")):
			continue
		case a == "-p", strings.HasPrefix(a, "-") && secretWord.MatchString(a) && SecretSetting(a):
		default:
			continue
		}
		i++
		if bareScheme(v) && i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "--") {
			out[i] = v
			i++
		}
		out[i] = maskValue(argv[i])
	}
	return out
}

// redactWord masks the secrets of one word of a command.
func redactWord(a string) string {
	if name, value, ok := strings.Cut(a, "="); ok && value != "" && secretWord.MatchString(name) && SecretSetting(name) {
		return name + "=" + maskValue(value) // the whole word's value, spaces and quotes included
	}
	if m := headerWord.FindStringSubmatch(a); m != nil && SecretSetting(m[1]) && !strings.HasPrefix(m[3], "//") {
		return m[1] + ":" + m[2] + maskValue(m[3])
	}
	return redactText(a) // a URL, or NAME=value inside a word (sh -c 'PASS=… node s.js')
}

// portLike matches a value of -p that is a port, an address mapping or a
// version rather than a password: digits, dots and colons only. A
// password of digits alone after -p is therefore shown (docs/workload.md).
var portLike = regexp.MustCompile(`^[0-9][0-9.:]*$`)

// packageRunners are the commands whose -p is --package, before the
// package they run.
var packageRunners = []string{"npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "bun"}

// runnerEnd is the index of the word that names the package a package
// runner runs (npx -y -p @scope/pkg srv: the index of srv), after an env
// prefix and its NAME=value words; 0 when the command is no package
// runner. Before it, -p is the runner's --package, not a password.
func runnerEnd(argv []string) int {
	i := 0
	if len(argv) > 0 && filepath.Base(argv[0]) == "env" {
		for i = 1; i < len(argv) && (strings.Contains(argv[i], "=") || strings.HasPrefix(argv[i], "-")); i++ {
		}
	}
	if i >= len(argv) || !slices.Contains(packageRunners, strings.TrimSuffix(filepath.Base(argv[i]), ".cmd")) {
		return 0
	}
	for i++; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "--":
			return i
		case a == "-p" || a == "--package":
			i++ // its value: the package to install
		case strings.HasPrefix(a, "-"), a == "exec", a == "dlx", a == "x":
		default:
			return i
		}
	}
	return i
}

// redactFlags masks, in a text, the value that follows a secret flag
// (--token abc, -password abc, --auth Bearer abc): a message that quotes
// a command it could not read as a target. -p is left alone in a text,
// where the command it belongs to is unknown.
func redactFlags(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range flagThenValue.FindAllStringSubmatchIndex(s, -1) {
		name, quote, from := s[m[2]:m[3]], s[m[4]:m[5]], m[1]
		if from < last || len(strings.TrimLeft(name, "-")) < 2 || !SecretSetting(name) || strings.HasPrefix(s[from:], "--") {
			continue
		}
		escaped := quote == `\"` // a message that quotes with %q: --token \"abc\"
		if escaped {
			quote = ""
		}
		to := withScheme(s, from, valueEnd(s, from, "", quote), quote)
		if escaped && to > from && s[to-1] == '\\' {
			to--
		}
		if to == from {
			continue
		}
		b.WriteString(s[last:from])
		b.WriteString(maskValue(s[from:to]))
		last = to
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// flagThenValue matches a flag (-x… or --x…) at the start of the text or
// after a space or a quote, the blanks after it, and the value's opening
// quote if any (escaped, in a message that quoted the command with %q).
var flagThenValue = regexp.MustCompile(`(?:^|[\s'"])(--?[A-Za-z][A-Za-z0-9_.-]*)[ \t]+(\\"|['"]?)`)

// MaskedArgs lists the words of a stdio target's command that hold the
// mask where Redacted puts one (--password xxxxx, API_KEY=xxxxx,
// https://u:xxxxx@h): a command read back from a result, which must not
// run with the placeholder as its secret. A word that merely contains
// the letters (a file named xxxxx) is not one.
func (t Target) MaskedArgs() []string {
	var out []string
	for i, a := range t.Argv {
		if !strings.Contains(a, Masked) {
			continue
		}
		probe := slices.Clone(t.Argv)
		probe[i] = strings.ReplaceAll(a, Masked, "probe-value")
		if redactArgv(probe)[i] == a {
			out = append(out, a)
		}
	}
	return out
}
