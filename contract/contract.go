package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// Options configure Check: which target, how to reach it, and
// the few things only the caller can say about it.
type Options struct {
	Target   targets.Target
	Protocol string // "auto" or "" detects the era; a version forces it
	// HTTPVersion is the HTTP version of an HTTP target: "1.1", "2" or
	// "auto" ("" is auto; docs/workload.md, http).
	HTTPVersion string
	Headers     map[string]string // HTTP headers; ${VAR} expands from the environment
	Auth        auth.Tokens       // an OAuth-protected target's tokens (nil: none)
	// EmbeddedCommand starts the simulated server for the embedded target,
	// as in Options.
	EmbeddedCommand []string
	Stderr          io.Writer // stdio servers' stderr; nil keeps only a tail
	Client          client.Implementation
	Sample          int           // resources of the listing to read (default 10)
	Timeout         time.Duration // per request (default 10 s)
	// CancelURI is the resource the cancellation check reads; "" picks a
	// slow one (a delayed sim: URI on the simulated server, else the
	// slowest sampled resource).
	CancelURI string
	// ReadPath is a file path for the ranged read tool on a server other
	// than the simulated one, whose paths readbench cannot guess.
	ReadPath string
	// Aim names the hosts besides loopback the target may be (see
	// targets.Aim); MaxAnswer bounds each answer (0: the default).
	Aim       targets.Aim
	MaxAnswer int64
	// HandshakeTimeout bounds opening the session (0: the client's default).
	HandshakeTimeout time.Duration
	// TemplateValues are values for listed templates' variables, by name
	// (--template-value NAME=VALUE): the template read row uses them
	// before a listed instance or a completion.
	TemplateValues map[string]string
	// ChangeTool is a tool taking {uri} that changes that document, for
	// the subscription rows (--change-tool; "": touch, when the server
	// lists a tool of that name).
	ChangeTool string
}

// checkNames are the checks after the handshake, in report order:
// skipped together when no session could be opened.
func checkNames() []string {
	return append([]string{"server info", "capabilities", "resources/list", "read", "listed size", "template read", "not-found error", "not-found shaped", "malformed uri", "cancellation"},
		append(subscriptionRows(), "read tool")...)
}

// Check opens one session to the target and checks its read contract
// (docs/check.md): the handshake, the listing, the shape of sampled reads,
// the error codes for unknown and malformed URIs, cancellation, and the
// ranged read tool where offered.
// A target that cannot be reached is a failed handshake in the report
// (and Findings.Unreachable says why), not an error; the error is for an
// interrupted check (ctx ended).
func Check(ctx context.Context, o Options) (*Findings, error) {
	if o.Sample <= 0 {
		o.Sample = 10
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	rep := &Findings{Target: o.Target}
	defer rep.noteAuth(o.Auth)
	conn, _, err := client.Open(ctx, client.Dial{
		Target: o.Target, Protocol: o.Protocol, Headers: o.Headers, Auth: o.Auth,
		Embedded: o.EmbeddedCommand, Stderr: o.Stderr, Client: o.Client,
		Aim: o.Aim, MaxAnswer: o.MaxAnswer, HandshakeTimeout: o.HandshakeTimeout,
		HTTP: client.HTTP{Version: o.HTTPVersion},
	})
	if err != nil {
		if ctx.Err() != nil {
			return rep, fmt.Errorf("check %s: %w", o.Target.Redacted(), ctx.Err())
		}
		if errors.Is(err, targets.ErrAim) { // refused before any connection: not the server's failure
			return rep, err
		}
		skipped := "no session: the handshake failed"
		if client.Unreachable(err) {
			rep.Unreachable = err.Error()
			skipped = "no session: the target could not be reached"
		}
		rep.add("handshake", results.CheckFail, "", err.Error())
		for _, n := range checkNames() {
			rep.add(n, results.CheckSkip, "", skipped)
		}
		return rep, nil
	}
	defer conn.Close()
	rep.Server, rep.ProtocolVersion = conn.Server(), conn.ProtocolVersion()
	c := &checker{o: o, rep: rep, sim: conn.SimURIs()}
	switch conn := conn.(type) {
	case *client.Documents: // range+http: the ranged read over plain HTTP (files.go)
		c.rep.add("handshake", results.CheckPass, "", "plain HTTP documents: HEAD of the prefix answered (no MCP)")
		c.documents(ctx, conn)
		return rep, nil
	case *client.Session:
		c.s, rep.Modern = conn, conn.Modern()
	default:
		return rep, fmt.Errorf("check %s: no checks for a %T", o.Target.Redacted(), conn)
	}
	c.handshake()
	steps := []func(context.Context){c.listAndSample, c.templateReads, c.notFoundRows, c.malformed, c.cancellation, c.subscriptions, c.readTool}
	if why := c.capabilities(); why != "" {
		steps = []func(context.Context){c.readTool}
		for _, n := range append([]string{"resources/list", "read", "listed size", "template read", "not-found error", "not-found shaped", "malformed uri", "cancellation"}, subscriptionRows()...) {
			rep.add(n, results.CheckNA, "", why)
		}
	}
	for _, step := range steps {
		if ctx.Err() != nil {
			return rep, fmt.Errorf("check %s: %w", o.Target.Redacted(), ctx.Err())
		}
		step(ctx)
	}
	return rep, nil
}

// checker is the state of one Check.
type checker struct {
	o      Options
	s      *client.Session
	rep    *Findings
	sim    bool // the server advertised that it serves any sim: URI (client.Conn.SimURIs)
	listed []contractResource
	// templates are the listed resource templates' uriTemplates, each once:
	// the not-found rows probe a missing instance of each.
	templates []string
	slowest   contractSample // the usable sampled read whose first byte came last
	sized     int            // listed size rows added
	served    int            // sampled reads answered ok: the server implements resources/read
}

type contractResource struct {
	URI      string          `json:"uri"`
	MIMEType string          `json:"mimeType"`
	Size     json.RawMessage `json:"size"`
}

type contractSample struct {
	uri     string
	latency time.Duration // to the answer's first byte (its end when the transport cannot tell)
}

func (c *checker) handshake() {
	era := "handshake era: initialize"
	if c.s.Modern() {
		era = "stateless era: server/discover"
	}
	c.rep.add("handshake", results.CheckPass, "", fmt.Sprintf("protocol %s (%s)", c.s.ProtocolVersion(), era))
	switch sv := c.s.Server(); {
	case sv.Name == "" || sv.Version == "":
		c.rep.add("server info", results.CheckFail, "", fmt.Sprintf("the server reported name %q, version %q: results are compared across server versions, so both are needed", sv.Name, sv.Version))
	default:
		c.rep.add("server info", results.CheckPass, "", sv.Name+" "+sv.Version)
	}
}

// noResources is the reason of every resource row on a server that
// declared no resources capability.
const noResources = "the server declares no resources capability"

// capabilities reports what the handshake declared, once, as its own
// row; it returns why the resource rows are not applicable ("" when they
// are). A handshake without a capabilities object declares nothing
// readbench can rely on, so every check runs as on any server.
func (c *checker) capabilities() string {
	caps := c.s.Capabilities()
	if !caps.Known {
		c.rep.add("capabilities", results.CheckSkip, "", "the handshake carried no capabilities object: every check runs")
		return ""
	}
	var have, lack []string
	for _, k := range []struct {
		on   bool
		name string
	}{{caps.Resources, "resources"}, {caps.Subscribe, "resources.subscribe"}, {caps.Tools, "tools"}} {
		if k.on {
			have = append(have, k.name)
		} else {
			lack = append(lack, k.name)
		}
	}
	d := "declares " + orNone(have)
	if len(lack) > 0 {
		d += "; not " + strings.Join(lack, ", ")
	}
	if !caps.Resources {
		c.rep.add("capabilities", results.CheckNA, "", noResources+" ("+d+"): resources/list, read, listed size, template read, not-found error, not-found shaped, malformed uri, cancellation and the subscription rows are not applicable")
		return noResources
	}
	c.rep.add("capabilities", results.CheckPass, "", d)
	return ""
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "nothing"
	}
	return strings.Join(s, ", ")
}

// maxListPages bounds the listing walk: a server whose cursors never end
// must not keep the check running.
const maxListPages = 100

// listAndSample walks resources/list page by page, then reads up to
// Sample resources spread over the listing and checks each answer with
// checkRead, the same verdict a run gives.
func (c *checker) listAndSample(ctx context.Context) {
	pages, err := c.list(ctx)
	switch {
	case err != nil:
		c.rep.add("resources/list", results.CheckFail, "", err.Error())
	case len(c.listed) == 0:
		c.rep.add("resources/list", results.CheckFail, "", fmt.Sprintf("lists nothing (%d %s): nothing to sample", pages, plural(pages, "page", "pages")))
	default:
		d := fmt.Sprintf("%d %s in %d %s", len(c.listed), plural(len(c.listed), "resource", "resources"), pages, plural(pages, "page", "pages"))
		if pages >= maxListPages {
			d += fmt.Sprintf(" (stopped after %d pages)", maxListPages)
		}
		c.rep.add("resources/list", results.CheckPass, "", d)
	}
	if len(c.listed) == 0 {
		c.rep.add("read", results.CheckSkip, "", "nothing listed to sample")
		c.rep.add("listed size", results.CheckSkip, "", "nothing listed to sample")
		return
	}
	n := min(c.o.Sample, len(c.listed))
	for i := range n {
		c.sampleRead(ctx, c.listed[i*len(c.listed)/n])
	}
	if c.sized == 0 {
		c.rep.add("listed size", results.CheckSkip, "", fmt.Sprintf("none of the %d sampled resources lists a size, or none was read ok", n))
	}
}

func (c *checker) list(ctx context.Context) (pages int, err error) {
	l, err := c.s.Paginate(ctx, protocol.MethodResourcesList, maxListPages, c.o.Timeout, func(raw json.RawMessage) (string, error) {
		var res struct {
			Resources  []contractResource `json:"resources"`
			NextCursor string             `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return "", err
		}
		c.listed = append(c.listed, res.Resources...)
		return res.NextCursor, nil
	})
	if err == nil && l.RepeatedCursor != "" {
		err = fmt.Errorf("page %d repeats the cursor %q: the listing never ends", l.Pages, l.RepeatedCursor)
	}
	return l.Pages, err
}

// sampleRead reads one listed resource: every finding of the shape check
// is a failed row naming the URI.
func (c *checker) sampleRead(ctx context.Context, r contractResource) {
	uri := r.URI
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	a, err := c.s.ReadDocument(rctx, uri, client.ReadSpec{})
	cancel()
	switch {
	case err != nil:
		c.rep.add("read", results.CheckFail, uri, err.Error())
		return
	case !a.Answered: // no answer: the exchange failed, in its own words
		c.rep.add("read", results.CheckFail, uri, a.Detail)
		return
	}
	latency := a.Done.Sub(a.Sent)
	firstByte := latency // what a cancel must beat: the answer's start
	if at, known := c.answerStart(a.FirstByte, a.Done); known {
		firstByte = at.Sub(a.Sent)
	}
	switch a.Outcome {
	case stats.OK:
	case stats.Protocol:
		c.rep.add("read", results.CheckFail, uri, "unusable answer: "+a.Reason)
		return
	case stats.InputRequired:
		c.rep.add("read", results.CheckSkip, uri, "answered input_required: it wants input readbench cannot give")
		return
	default:
		c.rep.add("read", results.CheckFail, uri, "a listed resource answered "+describeAnswer(a))
		return
	}
	if listed := listedSize(r.Size); listed >= 0 {
		st, d := judgeListedSize(listed, a.DiskBytes, a.Entries)
		c.rep.add("listed size", st, uri, d)
		c.sized++
	}
	var findings []string
	if a.Shape.URIRewritten > 0 {
		findings = append(findings, "uri not echoed: the entry names another uri")
	}
	if a.Shape.MIMEMissing > 0 {
		findings = append(findings, fmt.Sprintf("%d of %d entries without mimeType", a.Shape.MIMEMissing, a.Entries))
	}
	if a.Shape.MIMEMismatch > 0 {
		// Only a blob has magic bytes; a text entry contradicts its type
		// by being text under a binary type, or not JSON under a JSON one.
		what := "their magic bytes contradict"
		if a.Base64Bytes == 0 {
			what = "their text contradicts (a binary type on text, or a JSON type on text that is not JSON)"
		}
		findings = append(findings, fmt.Sprintf("%d of %d entries declare a mimeType %s", a.Shape.MIMEMismatch, a.Entries, what))
	}
	for _, f := range findings {
		c.rep.add("read", results.CheckFail, uri, f)
	}
	if len(findings) == 0 {
		c.rep.add("read", results.CheckPass, uri, fmt.Sprintf("%d %s, %d bytes on disk, %d on the wire, %s",
			a.Entries, plural(a.Entries, "entry", "entries"), a.DiskBytes, a.WireBytes, numfmt.Duration(latency)))
	}
	c.served++
	if c.slowest.uri == "" || firstByte > c.slowest.latency {
		c.slowest = contractSample{uri: uri, latency: firstByte}
	}
}

// answerStart is when an answer started: its first byte where the
// transport can tell (a stdio line, an HTTP+SSE event), else its end.
// Over Streamable HTTP the first response byte may be the headers of a
// stream that carries the answer much later, so the end is used there.
func (c *checker) answerStart(firstByte, done time.Time) (time.Time, bool) {
	if firstByte.IsZero() || (c.s != nil && c.s.PerRequestStream()) {
		return done, false
	}
	return firstByte, true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// isMethodNotFound reports whether err is the server saying it has no
// such method.
func isMethodNotFound(err error) bool {
	var rpcErr *protocol.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == protocol.CodeMethodNotFound
}
