package targets

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// Kind is the transport readbench uses to reach a server (docs/workload.md (targets)).
type Kind string

// The target kinds. The kind decides the transport and, for mime+size
// classes, whether the server can synthesize the resource (only embedded).
const (
	Embedded Kind = "embedded" // the simulated server, as a child process over stdio
	Stdio    Kind = "stdio"    // a child process per session, JSON-RPC on stdin/stdout
	HTTP     Kind = "http"     // http:// or https:// Streamable HTTP
	SSE      Kind = "sse"      // sse+http:// or sse+https:// legacy HTTP+SSE
	// Files is range+http:// or range+https://: plain HTTP documents
	// (the ranged read over HTTP, docs/check.md), no MCP. A class's URI path and query are
	// appended to the prefix; whole GETs, or Range requests for ranged
	// classes.
	Files Kind = "files"
)

// Target is the server a run loads. It is written as one string on the
// command line and in the file ("embedded", "stdio:./server --stdio",
// "https://host/mcp", "sse+http://host/sse"), or in the file as
// {stdio: [CMD, ARG...]} when an argument needs characters that quoting
// would make hard to read (the workload package reads that form).
type Target struct {
	Kind    Kind
	Address string   // http/sse/files: a plain http(s) URL (the "sse+" or "range+" prefix removed); "" otherwise
	Argv    []string // stdio: the command and its arguments
}

// Transport names the transport a target is reached over, as results
// record it: the embedded server is a stdio child like any other.
func (t Target) Transport() string {
	if t.Kind == Embedded || t.Kind == "" {
		return "stdio"
	}
	return string(t.Kind)
}

// Parse parses a target string: "" or "embedded"; "stdio:CMD ARG...",
// split on white space with single and double quotes grouping words and a
// backslash escaping one character (there is no shell: no variables, globs
// or pipes, so what is written is exactly what is run); "http://..." or
// "https://..." for Streamable HTTP; "sse+http://..." or "sse+https://..."
// for the legacy HTTP+SSE transport; "range+http://HOST:PORT/PREFIX/" or
// "range+https://..." for plain HTTP documents.
func Parse(s string) (Target, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "" || strings.EqualFold(t, string(Embedded)):
		return Target{Kind: Embedded}, nil
	case hasPrefixFold(t, "stdio:"):
		argv, err := SplitArgs(t[len("stdio:"):])
		if err != nil {
			return Target{}, fmt.Errorf("bad target %s: %w", shown(s), err)
		}
		if len(argv) == 0 || argv[0] == "" {
			return Target{}, fmt.Errorf("bad target %s: stdio: needs a command, as in stdio:./server --stdio", shown(s))
		}
		return Target{Kind: Stdio, Argv: argv}, nil
	case hasPrefixFold(t, "sse+http://") || hasPrefixFold(t, "sse+https://"):
		addr := t[len("sse+"):]
		if err := checkURL(addr); err != nil {
			return Target{}, fmt.Errorf("bad target %s: %w", shown(s), err)
		}
		return Target{Kind: SSE, Address: addr}, nil
	case hasPrefixFold(t, "range+http://") || hasPrefixFold(t, "range+https://"):
		addr := t[len("range+"):]
		if err := checkURL(addr); err != nil {
			return Target{}, fmt.Errorf("bad target %s: %w", shown(s), err)
		}
		if !strings.HasSuffix(addr, "/") {
			return Target{}, fmt.Errorf("bad target %s: a range+http target is a prefix a class's path is appended to: end it with /, as in range+http://127.0.0.1:8080/files/", shown(s))
		}
		return Target{Kind: Files, Address: addr}, nil
	case hasPrefixFold(t, "http://") || hasPrefixFold(t, "https://"):
		if err := checkURL(t); err != nil {
			return Target{}, fmt.Errorf("bad target %s: %w", shown(s), err)
		}
		return Target{Kind: HTTP, Address: t}, nil
	}
	return Target{}, fmt.Errorf("unknown target %s%s: want embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/PATH or range+http(s)://HOST:PORT/PREFIX/", shown(s), didYouMean(s))
}

// shown is a target that Parse refuses, quoted for its message with its
// secrets masked as far as a text can be (redactText: it is no target to
// mask word by word), since the message ends up in CI logs.
func shown(s string) string { return strconv.Quote(redactText(s)) }

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// checkURL reports why u is not a usable http(s) URL. A *url.Error is
// unwrapped to its cause: the caller's message already names the target,
// and the cause stays in the chain for errors.As.
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

// Check reports why t cannot be used, or nil. Parse never returns such a
// target; a Target built as a literal (tests, a workload's override) may
// be one, which is why workload validation calls it.
func (t Target) Check() error {
	switch t.Kind {
	case "", Embedded:
		return nil
	case Stdio:
		if len(t.Argv) == 0 || t.Argv[0] == "" {
			return errors.New("a stdio target needs a command")
		}
		return nil
	case HTTP, SSE, Files:
		if !hasPrefixFold(t.Address, "http://") && !hasPrefixFold(t.Address, "https://") {
			return fmt.Errorf("address %s is not an http(s) URL", shown(t.Address))
		}
		return checkURL(t.Address)
	}
	return fmt.Errorf("unknown target kind %q (want embedded, stdio, http, sse or files)", t.Kind)
}

// String is the target as it is written on the command line: "embedded",
// "stdio:cmd arg" (arguments quoted where needed, so Parse reads it back
// to the same Argv), the URL, or "sse+" and the URL. Results record it.
func (t Target) String() string {
	switch t.Kind {
	case Stdio:
		return "stdio:" + JoinArgs(t.Argv)
	case HTTP:
		return t.Address
	case SSE:
		return "sse+" + t.Address
	case Files:
		return "range+" + t.Address
	}
	return string(Embedded)
}

// MarshalText writes the target as String does.
func (t Target) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a target with Parse.
func (t *Target) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// OnThisMachine reports whether the target runs on the machine readbench
// runs on: a child process (embedded, stdio) or a loopback address. Such
// a server shares the machine's CPUs with readbench and everything else
// on it, so a busy machine slows it whatever its own work.
func (t Target) OnThisMachine() bool {
	switch t.Kind {
	case Embedded, Stdio, "":
		return true
	}
	u, err := url.Parse(t.Address)
	return err == nil && protocol.IsLoopbackHost(u.Hostname())
}
