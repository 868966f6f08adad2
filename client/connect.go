package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/readbench/readbench/targets"
)

// Dial is what opening one session needs: where the target is, how to
// start or reach it, and what to say to it. A run, discovery and the
// contract check all open their sessions through Connect, so a target
// behaves the same whichever command meets it.
type Dial struct {
	Target   targets.Target
	Protocol string            // "auto" (or "") detects the era; a version forces it
	Headers  map[string]string // HTTP headers; ${VAR} expands from the environment, values are never kept
	// Embedded starts the simulated server for the embedded target: the
	// CLI passes its own executable with "serve --stdio", so the server is
	// a real child process behind real pipes.
	Embedded []string
	Stderr   io.Writer      // stdio servers' stderr (nil: kept only to explain a server that dies)
	Client   Implementation // our clientInfo
	Late     LateFunc       // answers to cancelled requests not tagged WithLate (nil: not counted)
	// Aim says which hosts besides loopback the target may name, and
	// whether headers may go to one over plain http; checked before
	// anything is started or resolved (see targets.CheckAim).
	Aim targets.Aim
	// MaxAnswer bounds each answer in bytes (0: targets.DefaultMaxAnswer); a
	// bigger one ends its read with an ErrProtocol error.
	MaxAnswer int64
}

// HandshakeTimeout bounds opening a session, era detection included.
const HandshakeTimeout = 30 * time.Second

// Connect starts or reaches an MCP target, then settles the era. It
// returns the session and how long its handshake took (cold start). A
// range+http target speaks no MCP: Open reads it (ConnectDocuments).
func Connect(ctx context.Context, d Dial) (*Session, time.Duration, error) {
	if err := targets.CheckAim(d.Target, d.Headers, d.Aim); err != nil {
		return nil, 0, err
	}
	var t transport
	var err error
	switch tg := d.Target; tg.Kind {
	case targets.Embedded, "":
		if len(d.Embedded) == 0 {
			return nil, 0, errors.New("the embedded target needs the command that starts the simulated server")
		}
		t, err = startStdio(d.Embedded, d.Stderr, d.Late, d.MaxAnswer)
	case targets.Stdio:
		t, err = startStdio(tg.Argv, d.Stderr, d.Late, d.MaxAnswer)
	case targets.HTTP:
		t = newHTTPTransport(tg.Address, expandHeaders(d.Headers), d.MaxAnswer)
	case targets.SSE:
		t, err = startSSE(ctx, tg.Address, expandHeaders(d.Headers), d.Late, d.MaxAnswer)
	case targets.Files:
		return nil, 0, fmt.Errorf("target %s serves plain HTTP documents: it speaks no MCP (no JSON-RPC, no listing)", tg.Redacted())
	default:
		return nil, 0, fmt.Errorf("target %s: the %s transport is not supported", tg, tg.Kind)
	}
	if err != nil {
		return nil, 0, err
	}
	s := &Session{t: t, client: d.Client}
	hctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	start := time.Now()
	if err := s.handshake(hctx, d.Protocol); err != nil {
		_ = t.close()
		return nil, 0, err
	}
	return s, time.Since(start), nil
}

// expandHeaders expands ${VAR} in header values from the environment.
// Values are secrets: they go on the wire and nowhere else.
func expandHeaders(h map[string]string) http.Header {
	out := make(http.Header, len(h))
	for k, v := range h {
		out.Set(k, os.Expand(v, os.Getenv))
	}
	return out
}
