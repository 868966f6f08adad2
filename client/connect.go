package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/readbench/readbench/workload"
)

// dialSpec is what opening one session needs: where the target is, how to
// start or reach it, and what to say to it. A run, discovery and the
// contract check all open their sessions through connect, so a target
// behaves the same whichever command meets it.
type dialSpec struct {
	target   workload.Target
	protocol string            // "auto" or a version to force
	headers  map[string]string // HTTP headers, ${VAR} not yet expanded
	embedded []string          // the command that starts the simulated server
	stderr   io.Writer         // stdio servers' stderr (nil: kept for errors only)
	client   ServerInfo
	late     lateFunc // answers to cancelled reads (nil: not counted)
}

// handshakeTimeout bounds opening a session, era detection included.
const handshakeTimeout = 30 * time.Second

// connect starts or reaches the target, then settles the era. It returns
// the session and how long its handshake took (cold start).
func connect(ctx context.Context, d dialSpec) (*session, time.Duration, error) {
	var t transport
	var err error
	switch tg := d.target; tg.Kind {
	case workload.TargetEmbedded, "":
		if len(d.embedded) == 0 {
			return nil, 0, errors.New("the embedded target needs the command that starts the simulated server")
		}
		t, err = startStdio(d.embedded, d.stderr, d.late)
	case workload.TargetStdio:
		t, err = startStdio(tg.Argv, d.stderr, d.late)
	case workload.TargetHTTP:
		t = newHTTPTransport(tg.Address, expandHeaders(d.headers))
	case workload.TargetSSE:
		t, err = startSSE(ctx, tg.Address, expandHeaders(d.headers), d.late)
	default:
		return nil, 0, fmt.Errorf("target %s: the %s transport is not supported", tg, tg.Kind)
	}
	if err != nil {
		return nil, 0, err
	}
	s := &session{t: t, client: d.client}
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	start := time.Now()
	if err := s.handshake(hctx, d.protocol); err != nil {
		_ = t.close()
		return nil, 0, err
	}
	return s, time.Since(start), nil
}
