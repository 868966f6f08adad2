package workload

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"
)

// TargetKind is the transport readbench uses to reach a server (docs/workload.md (targets)).
type TargetKind string

// The target kinds. The kind decides the transport and, for mime+size
// classes, whether the server can synthesize the resource (only embedded).
const (
	TargetEmbedded TargetKind = "embedded" // the simulated server, as a child process over stdio
	TargetStdio    TargetKind = "stdio"    // a child process per session, JSON-RPC on stdin/stdout
	TargetHTTP     TargetKind = "http"     // http:// or https:// Streamable HTTP
	TargetSSE      TargetKind = "sse"      // sse+http:// or sse+https:// legacy HTTP+SSE
	// TargetFiles is range+http:// or range+https://: plain HTTP documents
	// (seed 004 over HTTP), no MCP. A class's URI path and query are
	// appended to the prefix; whole GETs, or Range requests for ranged
	// classes.
	TargetFiles TargetKind = "files"
)

// Target is the server a run loads. It is written as one string on the
// command line and in the file ("embedded", "stdio:./server --stdio",
// "https://host/mcp", "sse+http://host/sse"), or in the file as
// {stdio: [CMD, ARG...]} when an argument needs characters that quoting
// would make hard to read.
type Target struct {
	Kind    TargetKind
	Address string   // http/sse/files: a plain http(s) URL (the "sse+" or "range+" prefix removed); "" otherwise
	Argv    []string // stdio: the command and its arguments
}

// Transport names the transport a target is reached over, as results
// record it: the embedded server is a stdio child like any other.
func (t Target) Transport() string {
	if t.Kind == TargetEmbedded || t.Kind == "" {
		return "stdio"
	}
	return string(t.Kind)
}

// ParseTarget parses a target string: "" or "embedded"; "stdio:CMD ARG...",
// split on white space with single and double quotes grouping words and a
// backslash escaping one character (there is no shell: no variables, globs
// or pipes, so what is written is exactly what is run); "http://..." or
// "https://..." for Streamable HTTP; "sse+http://..." or "sse+https://..."
// for the legacy HTTP+SSE transport; "range+http://HOST:PORT/PREFIX/" or
// "range+https://..." for plain HTTP documents.
func ParseTarget(s string) (Target, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "" || strings.EqualFold(t, string(TargetEmbedded)):
		return Target{Kind: TargetEmbedded}, nil
	case hasPrefixFold(t, "stdio:"):
		argv, err := SplitArgs(t[len("stdio:"):])
		if err != nil {
			return Target{}, fmt.Errorf("bad target %q: %v", s, err)
		}
		if len(argv) == 0 || argv[0] == "" {
			return Target{}, fmt.Errorf("bad target %q: stdio: needs a command, as in stdio:./server --stdio", s)
		}
		return Target{Kind: TargetStdio, Argv: argv}, nil
	case hasPrefixFold(t, "sse+http://") || hasPrefixFold(t, "sse+https://"):
		addr := t[len("sse+"):]
		if err := checkURL(addr); err != nil {
			return Target{}, fmt.Errorf("bad target %q: %v", s, err)
		}
		return Target{Kind: TargetSSE, Address: addr}, nil
	case hasPrefixFold(t, "range+http://") || hasPrefixFold(t, "range+https://"):
		addr := t[len("range+"):]
		if err := checkURL(addr); err != nil {
			return Target{}, fmt.Errorf("bad target %q: %v", s, err)
		}
		if !strings.HasSuffix(addr, "/") {
			return Target{}, fmt.Errorf("bad target %q: a range+http target is a prefix a class's path is appended to: end it with /, as in range+http://127.0.0.1:8080/files/", s)
		}
		return Target{Kind: TargetFiles, Address: addr}, nil
	case hasPrefixFold(t, "http://") || hasPrefixFold(t, "https://"):
		if err := checkURL(t); err != nil {
			return Target{}, fmt.Errorf("bad target %q: %v", s, err)
		}
		return Target{Kind: TargetHTTP, Address: t}, nil
	}
	return Target{}, fmt.Errorf("unknown target %q: want embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/PATH or range+http(s)://HOST:PORT/PREFIX/", s)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// checkURL reports why u is not a usable http(s) URL.
func checkURL(u string) error {
	p, err := url.Parse(u)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return err
	}
	if p.Host == "" || p.Hostname() == "" {
		return errors.New("the URL has no host")
	}
	if strings.ContainsAny(u, " \t\r\n") {
		return errors.New("the URL contains white space")
	}
	return nil
}

// check reports why t cannot be used, or nil.
func (t Target) check() error {
	switch t.Kind {
	case "", TargetEmbedded:
		return nil
	case TargetStdio:
		if len(t.Argv) == 0 || t.Argv[0] == "" {
			return errors.New("a stdio target needs a command")
		}
		return nil
	case TargetHTTP, TargetSSE, TargetFiles:
		if !hasPrefixFold(t.Address, "http://") && !hasPrefixFold(t.Address, "https://") {
			return fmt.Errorf("address %q is not an http(s) URL", t.Address)
		}
		return checkURL(t.Address)
	}
	return fmt.Errorf("unknown target kind %q (want embedded, stdio, http, sse or files)", t.Kind)
}

// String is the target as it is written on the command line: "embedded",
// "stdio:cmd arg" (arguments quoted where needed, so ParseTarget reads it
// back to the same Argv), the URL, or "sse+" and the URL. Results record it.
func (t Target) String() string {
	switch t.Kind {
	case TargetStdio:
		return "stdio:" + JoinArgs(t.Argv)
	case TargetHTTP:
		return t.Address
	case TargetSSE:
		return "sse+" + t.Address
	case TargetFiles:
		return "range+" + t.Address
	}
	return string(TargetEmbedded)
}

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

// MarshalText writes the target as String does.
func (t Target) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a target with ParseTarget.
func (t *Target) UnmarshalText(b []byte) error {
	v, err := ParseTarget(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// SplitArgs splits a command line into words the way ParseTarget does for
// stdio targets: white space separates words; '...' groups characters
// literally; "..." groups them with \" and \\ as the only escapes; outside
// quotes a backslash takes the next character literally. There is no shell,
// so nothing else is special. It is exported for the command line, which
// splits --target values the same way.
func SplitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

// JoinArgs is the inverse of SplitArgs: it quotes the words that need it.
func JoinArgs(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		switch {
		// Any Unicode space is quoted, not only the separators: ParseTarget
		// trims the whole text (strings.TrimSpace), so a bare "\f" or
		// U+0085 at either end would be lost on the way back.
		case a != "" && !strings.ContainsAny(a, "'\"\\") && strings.IndexFunc(a, unicode.IsSpace) < 0:
			parts[i] = a
		case !strings.Contains(a, "'"):
			parts[i] = "'" + a + "'"
		default:
			parts[i] = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(a) + `"`
		}
	}
	return strings.Join(parts, " ")
}
