package client

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/internal/numfmt"
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
	// Auth, when set, gives every HTTP request of Streamable HTTP and
	// HTTP+SSE its bearer token (Authorization: Bearer), and is told of the
	// server refusing one (401, or 403 insufficient_scope): that request is
	// sent once more with the renewed token, and a read refused again is
	// unauthorized (ErrUnauthorized; the Answer's outcome stats.Unauthorized). When Headers also has an
	// Authorization, Auth wins: its token replaces that header. Stdio and
	// range+http targets ignore it.
	Auth auth.Tokens
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
	// NoKeepAlive sends every HTTP request with Connection: close on a
	// connection of its own, as a client without keep-alive does (the
	// workload's load.keep_alive: false), for servers fronted by something
	// that closes connections anyway. Stdio ignores it.
	NoKeepAlive bool
	// HTTP is the HTTP version Streamable HTTP, HTTP+SSE and range+http
	// targets speak, and the HTTP/2 pool they share (zero: auto, a pool
	// of the session's own). Stdio ignores it.
	HTTP HTTP
	// MaxAnswer bounds each answer in bytes (0: targets.DefaultMaxAnswer); a
	// bigger one ends its read with an ErrProtocol error.
	MaxAnswer int64
	// HandshakeTimeout bounds opening the session, era detection included
	// (0: DefaultHandshakeTimeout). A server that never answers fails with
	// an error naming this limit and what sets it: HandshakeSetBy, a clause
	// such as "load.handshake_timeout in the workload sets it", or
	// "--handshake-timeout sets it" when that is "".
	HandshakeTimeout time.Duration
	HandshakeSetBy   string
	// Stray, when set, is told of every line a stdio server prints on its
	// stdout that is not JSON-RPC, and of every answer, on stdio or an
	// HTTP+SSE stream, whose id matches no request in flight (an id never
	// sent, or a second answer), as it comes, from the session's reader:
	// a *StrayError with the counts so far and the first few quoted, for a
	// run's log to say (paced; the server breaks its transport, and what
	// it sent would otherwise be skipped in silence). A stdio handshake
	// fails on stray lines and unknown ids by itself.
	Stray func(error)
	// Step, when set, is told what opening the session waits for: "start"
	// (a stdio server being started, an HTTP+SSE stream being opened), then
	// "handshake". It is how a terminal shows a newcomer why nothing has
	// happened yet.
	Step func(step string)
}

// step tells d.Step what opening the session waits for now.
func (d Dial) step(s string) {
	if d.Step != nil {
		d.Step(s)
	}
}

// DefaultHandshakeTimeout bounds opening a session when Dial does not say:
// long enough for a stdio server that installs itself on first start
// (npx), short enough that a target which never answers is reported.
const DefaultHandshakeTimeout = 30 * time.Second

// handshakeTimeout is d's limit on opening a session.
func (d Dial) handshakeTimeout() time.Duration {
	if d.HandshakeTimeout > 0 {
		return d.HandshakeTimeout
	}
	return DefaultHandshakeTimeout
}

// handshakeExpired names the limit that expired when the handshake's own
// deadline (not the caller's) ended it, and the flag that sets it; other
// errors are returned as they are.
func handshakeExpired(ctx, hctx context.Context, limit time.Duration, setBy string, err error) error {
	if ctx.Err() != nil || !errors.Is(hctx.Err(), context.DeadlineExceeded) {
		return err
	}
	return &handshakeTimeoutError{limit: limit, setBy: cmp.Or(setBy, "--handshake-timeout sets it"), err: err}
}

// handshakeTimeoutError is a session that did not open within its
// handshake timeout. It unwraps to what the handshake was doing (often
// context.DeadlineExceeded itself, which the message then leaves out).
type handshakeTimeoutError struct {
	limit   time.Duration
	setBy   string // what sets the limit, a clause: "--handshake-timeout sets it"
	err     error
	started bool // the server is known to be up (ServerStarted): no slow-start advice
}

func (e *handshakeTimeoutError) Error() string {
	advice := "; a server that starts slowly, such as one npx installs first, may need more"
	if e.started {
		advice = ""
	}
	msg := fmt.Sprintf("no answer within the handshake timeout of %s (%s%s)", numfmt.Duration(e.limit), e.setBy, advice)
	if e.err.Error() != context.DeadlineExceeded.Error() {
		msg += ": " + e.err.Error()
	}
	return msg
}

func (e *handshakeTimeoutError) Unwrap() error { return e.err }

// ServerStarted is err as said of a session whose server is known to be
// up because another session of the run connected to it, or had its
// HTTP+SSE stream served: a handshake timeout then drops its advice that
// the server may start slowly, which would send the user after the wrong
// cause (and a longer timeout that changes nothing), and an HTTP+SSE GET
// refused drops its advice that the server may be Streamable HTTP. Any
// other error is returned as it is.
func ServerStarted(err error) error {
	if s, ok := err.(*streamServedError); ok {
		return &streamServedError{err: ServerStarted(s.err)}
	}
	var ge *sseGetError
	if errors.As(err, &ge) && !ge.served {
		c := *ge
		c.served = true
		return getRefused(&c)
	}
	var he *handshakeTimeoutError
	if !errors.As(err, &he) || error(he) != err {
		return err
	}
	c := *he
	c.started = true
	return &c
}

// Connect starts or reaches an MCP target, then settles the era. It
// returns the session and how long its handshake took (cold start). A
// range+http target speaks no MCP: Open reads it (ConnectDocuments).
func Connect(ctx context.Context, d Dial) (*Session, time.Duration, error) {
	if err := targets.CheckAim(d.Target, d.aimHeaders(), d.Aim); err != nil {
		return nil, 0, err
	}
	var t transport
	var err error
	switch tg := d.Target; tg.Kind {
	case targets.Embedded, "":
		if len(d.Embedded) == 0 {
			return nil, 0, errors.New("the embedded target needs the command that starts the simulated server")
		}
		d.step("start")
		t, err = startStdio(d.Embedded, d.Stderr, d.Late, d.MaxAnswer)
	case targets.Stdio:
		d.step("start")
		t, err = startStdio(tg.Argv, d.Stderr, d.Late, d.MaxAnswer)
	case targets.HTTP:
		ht := newHTTPTransport(tg.Address, expandHeaders(d.Headers), d.MaxAnswer)
		ht.auth = newBearer(d.Auth)
		ht.client = d.httpClient()
		t = ht
	case targets.SSE:
		d.step("start")
		t, err = startAuthorizedSSE(ctx, tg.Address, expandHeaders(d.Headers), newBearer(d.Auth), d.Late, d.MaxAnswer, d.httpClient())
		err = handshakeRefused(err)
	case targets.Files:
		return nil, 0, fmt.Errorf("target %s serves plain HTTP documents: it speaks no MCP (no JSON-RPC, no listing)", tg.Redacted())
	default:
		return nil, 0, fmt.Errorf("target %s: the %s transport is not supported", tg, tg.Kind)
	}
	if err != nil {
		return nil, 0, err
	}
	s := &Session{t: t, client: d.Client, traceState: traceStateOf(d.Headers)}
	limit := d.handshakeTimeout()
	hctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	tctx := hctx // the handshake's own limits: the timeout, and stray lines on a stdio server's stdout
	if sse, ok := t.(*sseTransport); ok {
		sse.stray.tell(d.Stray)
	}
	st, _ := t.(*stdioTransport)
	if st != nil {
		st.stray.tell(d.Stray)
		var release func()
		tctx, release = st.stray.failFast(hctx, strayGrace)
		defer release()
	}
	start := time.Now()
	d.step("handshake")
	if err := s.handshake(tctx, d.Protocol); err != nil {
		_ = t.close()
		err = strayFailure(st, tctx, handshakeExpired(ctx, hctx, limit, d.HandshakeSetBy, handshakeRefused(err)))
		if _, ok := t.(*sseTransport); ok {
			err = &streamServedError{err: err}
		}
		return nil, 0, err
	}
	return s, time.Since(start), nil
}

// strayFailure is the error of a failed handshake told what the stdio
// server st printed on stdout that is not JSON-RPC: the reason itself when
// those lines ended the handshake (tctx's cause), else err with them
// added, unless err already quotes them (a dead server's exitError).
func strayFailure(st *stdioTransport, tctx context.Context, err error) error {
	if st == nil {
		return err
	}
	var sh *strayHandshakeError
	if errors.As(context.Cause(tctx), &sh) && !errors.As(err, new(*handshakeTimeoutError)) {
		return sh
	}
	stray := st.stray.err()
	var se *StrayError
	if stray == nil || errors.As(err, &se) {
		return err
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.stray != nil {
		return err
	}
	return fmt.Errorf("%w; %w", err, stray)
}

// aimHeaders are the headers the aim is checked with: the workload's, and
// the bearer token's Authorization when the target has tokens (a token
// is a credential too, kept off plain http to another host).
func (d Dial) aimHeaders() map[string]string {
	if d.Auth == nil {
		return d.Headers
	}
	h := make(map[string]string, len(d.Headers)+1)
	maps.Copy(h, d.Headers)
	h["Authorization"] = "Bearer (token)"
	return h
}

// handshakeRefused says plainly that opening the session failed on
// authorization, rather than leaving it to read as a transport failure.
func handshakeRefused(err error) error {
	if err != nil && errors.Is(err, ErrUnauthorized) {
		return fmt.Errorf("the server refused readbench's authorization: %w", err)
	}
	return err
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
