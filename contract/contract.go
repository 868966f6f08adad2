package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// CheckOptions configure CheckContract: which target, how to reach it, and
// the few things only the caller can say about it.
type CheckOptions struct {
	Target   workload.Target
	Protocol string            // "auto" or "" detects the era; a version forces it
	Headers  map[string]string // HTTP headers; ${VAR} expands from the environment
	// EmbeddedCommand starts the simulated server for the embedded target,
	// as in Options.
	EmbeddedCommand []string
	Stderr          io.Writer // stdio servers' stderr; nil keeps only a tail
	Client          ServerInfo
	Sample          int           // resources of the listing to read (default 10)
	Timeout         time.Duration // per request (default 10 s)
	// CancelURI is the resource the cancellation check reads; "" picks a
	// slow one (a delayed sim: URI on the simulated server, else the
	// slowest sampled resource).
	CancelURI string
	// ReadPath is a file path for the ranged read tool on a server other
	// than the simulated one, whose paths readbench cannot guess.
	ReadPath string
}

// CheckStatus is how one contract check ended.
type CheckStatus string

// The statuses of a check: skip always comes with the reason.
const (
	CheckPass CheckStatus = "pass"
	CheckFail CheckStatus = "fail"
	CheckSkip CheckStatus = "skip"
)

// CheckResult is one row of the contract report.
type CheckResult struct {
	Name   string
	Status CheckStatus
	URI    string // the resource, path or URI the check used, when one
	Detail string // what was seen, or why the check was skipped
}

// ContractReport is what CheckContract found: plain data, rendered by the
// caller (the driver knows nothing of output formats).
type ContractReport struct {
	Target          workload.Target
	Server          ServerInfo
	ProtocolVersion string
	Modern          bool // the stateless 2026-07-28 era
	Checks          []CheckResult
}

// Failed reports whether any check failed.
func (r *ContractReport) Failed() bool {
	for _, c := range r.Checks {
		if c.Status == CheckFail {
			return true
		}
	}
	return false
}

// contractCheckNames are the checks after the handshake, in report order:
// skipped together when no session could be opened.
func contractCheckNames() []string {
	return []string{"server info", "resources/list", "read", "not-found error", "malformed uri", "cancellation", "read tool"}
}

// CheckContract opens one session to the target and checks its read
// contract (DESIGN §2, PROTOCOL "The read contract"): the handshake, the
// listing, the shape of sampled reads, the error codes for unknown and
// malformed URIs, cancellation, and the ranged read tool where offered.
// A target that cannot be reached is a failed handshake in the report, not
// an error; the error is for an interrupted check (ctx ended).
func CheckContract(ctx context.Context, o CheckOptions) (*ContractReport, error) {
	if o.Sample <= 0 {
		o.Sample = 10
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	rep := &ContractReport{Target: o.Target}
	s, _, err := connect(ctx, dialSpec{
		target: o.Target, protocol: o.Protocol, headers: o.Headers,
		embedded: o.EmbeddedCommand, stderr: o.Stderr, client: o.Client,
	})
	if err != nil {
		if ctx.Err() != nil {
			return rep, fmt.Errorf("check %s: %w", o.Target, ctx.Err())
		}
		rep.add("handshake", CheckFail, "", err.Error())
		for _, n := range contractCheckNames() {
			rep.add(n, CheckSkip, "", "no session: the handshake failed")
		}
		return rep, nil
	}
	defer s.close()
	rep.Server, rep.ProtocolVersion, rep.Modern = s.server, s.version, s.modern
	c := &contractChecker{o: o, s: s, rep: rep, sim: s.server.Name == protocol.SimServerName}
	_, c.http = s.t.(*httpTransport)
	c.handshake()
	steps := []func(context.Context){c.listAndSample, c.notFound, c.malformed, c.cancellation, c.readTool}
	for _, step := range steps {
		if ctx.Err() != nil {
			return rep, fmt.Errorf("check %s: %w", o.Target, ctx.Err())
		}
		step(ctx)
	}
	return rep, nil
}

func (r *ContractReport) add(name string, st CheckStatus, uri, detail string) {
	r.Checks = append(r.Checks, CheckResult{Name: name, Status: st, URI: uri, Detail: detail})
}

// contractChecker is the state of one CheckContract.
type contractChecker struct {
	o       CheckOptions
	s       *session
	rep     *ContractReport
	sim     bool // the target is readbench's simulated server
	http    bool // Streamable HTTP (cancelling closes the stream)
	listed  []contractResource
	slowest contractSample // the slowest usable sampled read
}

type contractResource struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
}

type contractSample struct {
	uri     string
	latency time.Duration
}

func (c *contractChecker) handshake() {
	era := "handshake era: initialize"
	if c.s.modern {
		era = "stateless era: server/discover"
	}
	c.rep.add("handshake", CheckPass, "", fmt.Sprintf("protocol %s (%s)", c.s.version, era))
	switch sv := c.s.server; {
	case sv.Name == "" || sv.Version == "":
		c.rep.add("server info", CheckFail, "", fmt.Sprintf("the server reported name %q, version %q: results are compared across server versions, so both are needed", sv.Name, sv.Version))
	default:
		c.rep.add("server info", CheckPass, "", sv.Name+" "+sv.Version)
	}
}

// maxListPages bounds the listing walk: a server whose cursors never end
// must not keep the check running.
const maxListPages = 100

// listAndSample walks resources/list page by page, then reads up to
// Sample resources spread over the listing and checks each answer with
// checkRead, the same verdict a run gives.
func (c *contractChecker) listAndSample(ctx context.Context) {
	pages, err := c.list(ctx)
	switch {
	case err != nil:
		c.rep.add("resources/list", CheckFail, "", err.Error())
	case len(c.listed) == 0:
		c.rep.add("resources/list", CheckFail, "", fmt.Sprintf("lists nothing (%d %s): nothing to sample", pages, plural(pages, "page", "pages")))
	default:
		d := fmt.Sprintf("%d %s in %d %s", len(c.listed), plural(len(c.listed), "resource", "resources"), pages, plural(pages, "page", "pages"))
		if pages >= maxListPages {
			d += fmt.Sprintf(" (stopped after %d pages)", maxListPages)
		}
		c.rep.add("resources/list", CheckPass, "", d)
	}
	if len(c.listed) == 0 {
		c.rep.add("read", CheckSkip, "", "nothing listed to sample")
		return
	}
	n := min(c.o.Sample, len(c.listed))
	for i := range n {
		c.sampleRead(ctx, c.listed[i*len(c.listed)/n].URI)
	}
}

func (c *contractChecker) list(ctx context.Context) (pages int, err error) {
	cursor := ""
	seen := map[string]bool{}
	for pages < maxListPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var res struct {
			Resources  []contractResource `json:"resources"`
			NextCursor string             `json:"nextCursor"`
		}
		rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
		err := c.s.callSmall(rctx, protocol.MethodResourcesList, c.s.withMeta(params), &res)
		cancel()
		if err != nil {
			return pages, fmt.Errorf("page %d: %w", pages+1, err)
		}
		pages++
		c.listed = append(c.listed, res.Resources...)
		if res.NextCursor == "" {
			return pages, nil
		}
		if seen[res.NextCursor] {
			return pages, fmt.Errorf("page %d repeats the cursor %q: the listing never ends", pages, res.NextCursor)
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
	return pages, nil
}

// sampleRead reads one listed resource: every finding of the shape check
// is a failed row naming the URI.
func (c *contractChecker) sampleRead(ctx context.Context, uri string) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	a, err := c.s.read(rctx, uri)
	cancel()
	if err != nil {
		c.rep.add("read", CheckFail, uri, err.Error())
		return
	}
	latency := a.done.Sub(a.sent)
	v := checkRead(a.body, uri, c.s.modern)
	switch v.outcome {
	case stats.OK:
	case stats.Protocol:
		c.rep.add("read", CheckFail, uri, "unusable answer: "+v.detail)
		return
	case stats.InputRequired:
		c.rep.add("read", CheckSkip, uri, "answered input_required: it wants input readbench cannot give")
		return
	default:
		c.rep.add("read", CheckFail, uri, "a listed resource answered "+describeError(a.body))
		return
	}
	var findings []string
	if v.shape.URIRewritten > 0 {
		findings = append(findings, "uri not echoed: the entry names another uri")
	}
	if v.shape.MIMEMissing > 0 {
		findings = append(findings, fmt.Sprintf("%d of %d entries without mimeType", v.shape.MIMEMissing, v.entries))
	}
	if v.shape.MIMEMismatch > 0 {
		findings = append(findings, fmt.Sprintf("%d of %d entries declare a mimeType their magic bytes contradict", v.shape.MIMEMismatch, v.entries))
	}
	for _, f := range findings {
		c.rep.add("read", CheckFail, uri, f)
	}
	if len(findings) == 0 {
		c.rep.add("read", CheckPass, uri, fmt.Sprintf("%d %s, %d bytes on disk, %d on the wire, %s",
			v.entries, plural(v.entries, "entry", "entries"), v.diskBytes, a.wireBytes, roundLatency(latency)))
	}
	if latency > c.slowest.latency {
		c.slowest = contractSample{uri: uri, latency: latency}
	}
}

// roundLatency keeps three or so significant digits of a latency.
func roundLatency(d time.Duration) time.Duration {
	if d >= 10*time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(10 * time.Microsecond)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// newRequest encodes a request with a fresh id, for the checks that must
// know the id (to cancel it) or send their own params.
func (c *contractChecker) newRequest(method, name string, params map[string]any) (request, error) {
	id := c.s.nextID.Add(1)
	body, err := protocol.AppendRequest(nil, protocol.IntID(id), method, c.s.withMeta(params))
	if err != nil {
		return request{}, fmt.Errorf("encode %s: %w", method, err)
	}
	return request{id: id, method: method, name: name, body: body}, nil
}

// isMethodNotFound reports whether err is the server saying it has no
// such method.
func isMethodNotFound(err error) bool {
	var rpcErr *protocol.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == protocol.CodeMethodNotFound
}
