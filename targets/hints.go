package targets

import (
	"regexp"
	"strings"

	"github.com/readbench/readbench/internal/suggest"
)

// schemes are the URL schemes Parse knows, for LooksLike and the typo
// hints (stdio: is not a URL and is checked apart).
var schemes = []string{"http", "https", "sse+http", "sse+https", "range+http", "range+https"}

// LooksLike says whether arg is written as a target, not a file name or a
// scenario: "stdio:" or one of the URL schemes Parse knows (any case). A
// command whose first argument is a workload tells a target given there
// by this (`readbench run http://127.0.0.1:8080/mcp`); no workload file or
// scenario name starts so (a scenario is a plain name, and a file called
// "http:" would need a folder "http:" beside it).
func LooksLike(arg string) bool {
	a := strings.TrimSpace(arg)
	if hasPrefixFold(a, "stdio:") {
		return true
	}
	for _, s := range schemes {
		if hasPrefixFold(a, s+"://") {
			return true
		}
	}
	return false
}

// hostPort is a target written without its scheme: HOST:PORT, maybe a
// path after it ("127.0.0.1:18090", "localhost:18090/mcp", "[::1]:8080").
var hostPort = regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):[0-9]{1,5}(/\S*)?$`)

// Suggest is the target arg was most likely meant to be, "" when there is
// no plausible one: a scheme misspelt ("htp://h:1/mcp" → "http://h:1/mcp"),
// or no scheme at all ("127.0.0.1:18090" → "http://127.0.0.1:18090/mcp").
// A URL with no path gets "/mcp", the path the MCP specification's
// examples and most servers (readbench serve too) answer at.
func Suggest(arg string) string {
	fix := guess(strings.TrimSpace(arg))
	if _, err := Parse(fix); fix == "" || err != nil {
		return "" // a guess is offered only when it is a target
	}
	return fix
}

// otherSchemes are real schemes of other protocols: one is no misspelt
// http, whatever its letters ("ftp").
var otherSchemes = map[string]bool{"ftp": true, "ftps": true, "file": true, "ws": true, "wss": true, "ssh": true, "git": true}

// guess is Suggest's candidate, before Parse checks it.
func guess(a string) string {
	if scheme, rest, ok := strings.Cut(a, "://"); ok {
		if scheme == "" || LooksLike(a) || otherSchemes[strings.ToLower(scheme)] {
			return ""
		}
		fixed := suggest.Closest(scheme, schemes)
		if fixed == "" || rest == "" {
			return ""
		}
		return withPath(fixed + "://" + rest)
	}
	if hostPort.MatchString(a) {
		return withPath("http://" + a)
	}
	return ""
}

// withPath adds /mcp to an http(s) URL that has no path.
func withPath(u string) string {
	if !hasPrefixFold(u, "http://") && !hasPrefixFold(u, "https://") {
		return u
	}
	_, hostAndPath, _ := strings.Cut(u, "://")
	if !strings.ContainsAny(hostAndPath, "/?#") {
		return u + "/mcp"
	}
	return u
}

// didYouMean is the end of Parse's message for a target it does not know:
// the target meant, when there is one, its secrets masked.
func didYouMean(s string) string {
	if fix := Suggest(s); fix != "" {
		return " (did you mean " + shown(fix) + "?)"
	}
	return ""
}
