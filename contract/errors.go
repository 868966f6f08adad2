package contract

import (
	"context"
	"fmt"
	"net/url"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// notFoundURI is a URI that cannot exist: the scheme and authority of a
// listed resource (so the server serves that scheme and the answer is
// about the resource, not the scheme) with a path of our own. The
// simulated server serves any sim: URI, and answers any other as missing.
func (c *checker) notFoundURI() string {
	const path, fallback = "/readbench-check/no-such-resource-7f3a9c", "docs://readbench-check/no-such-resource-7f3a9c"
	if c.sim || len(c.listed) == 0 {
		return fallback
	}
	u, err := url.Parse(c.listed[0].URI)
	switch {
	case err != nil || u.Scheme == "":
		return fallback
	case u.Opaque != "":
		return u.Scheme + ":" + path[1:]
	}
	u.Path, u.RawPath, u.RawQuery, u.Fragment = path, "", "", ""
	return u.String()
}

// notFound reads a URI that cannot exist: a legacy server answers -32002,
// a 2026-07-28 one -32602 (which retired -32002).
func (c *checker) notFound(ctx context.Context) {
	uri := c.notFoundURI()
	want, era := protocol.CodeResourceNotFound, "a "+c.s.ProtocolVersion()+" server answers -32002"
	if c.s.Modern() {
		want, era = protocol.CodeInvalidParams, "a 2026-07-28 server answers -32602 (-32002 is retired)"
	}
	code, got, failed := c.errorProbe(ctx, uri)
	switch {
	case failed != "":
		c.rep.add("not-found error", results.CheckFail, uri, failed)
	case code == want:
		c.rep.add("not-found error", results.CheckPass, uri, got)
	case code == protocol.CodeInvalidParams && client.SaysNotFound(got):
		// The official SDKs answer -32602 in every era since SEP-2164;
		// a host that follows the specification of its era still has to
		// expect it, so it passes with the difference named.
		c.rep.add("not-found error", results.CheckPass, uri, got+" (-32602, as the SDKs answer in every era since SEP-2164; this era's code is -32002)")
	case code == protocol.CodeMethodNotFound && c.served > 0 && client.SaysResourceMissing(got):
		// fastmcp 4.20.16: a server that has just answered reads says
		// its method is missing when a resource is.
		c.rep.add("not-found error", results.CheckFail, uri, got+"; "+misusedCode+", yet it answered "+
			fmt.Sprintf("%d sampled %s", c.served, plural(c.served, "read", "reads"))+"; "+era)
	case code == 0:
		c.rep.add("not-found error", results.CheckFail, uri, got+" for a URI that cannot exist; "+era)
	default:
		c.rep.add("not-found error", results.CheckFail, uri, got+"; "+era)
	}
}

// misusedCode is what the not-found row says of a server that answers a
// missing resource with -32601 while it serves reads: the code of a
// missing method, which a client takes for a server without
// resources/read.
const misusedCode = "the server answers a missing resource with -32601 (Method not found); a client would conclude resources/read is absent"

// malformedURIs are not URIs at all: a space-separated phrase and a
// string of colons (no scheme, no path).
func malformedURIs() []string { return []string{"not a uri", "::::"} }

// malformed reads URIs that are not URIs: -32602 in both eras.
func (c *checker) malformed(ctx context.Context) {
	for _, uri := range malformedURIs() {
		code, got, failed := c.errorProbe(ctx, uri)
		switch {
		case failed != "":
			c.rep.add("malformed uri", results.CheckFail, uri, failed)
		case code == protocol.CodeInvalidParams:
			c.rep.add("malformed uri", results.CheckPass, uri, got)
		default:
			c.rep.add("malformed uri", results.CheckFail, uri, got+"; a malformed URI is -32602 (invalid params)")
		}
	}
}

// errorProbe reads uri expecting an error: it returns the JSON-RPC code
// (0 when the answer was not an error) and a description of the answer,
// or why the read got no answer at all (failed, "" when it got one).
func (c *checker) errorProbe(ctx context.Context, uri string) (code int, got, failed string) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	a, err := c.s.ReadDocument(rctx, uri, client.ReadSpec{})
	switch {
	case err != nil:
		return 0, "", err.Error()
	case !a.Answered:
		return 0, "", a.Detail
	case a.Code != 0:
		return a.Code, describeAnswer(a), ""
	}
	switch a.Outcome {
	case stats.OK:
		return 0, fmt.Sprintf("answered ok (%d %s, %d bytes)", a.Entries, plural(a.Entries, "entry", "entries"), a.DiskBytes), ""
	case stats.InputRequired:
		return 0, "answered input_required", ""
	case stats.Protocol:
		return 0, "answered neither contents nor an error (" + a.Reason + ")", ""
	}
	return 0, "answered neither contents nor an error (" + a.Detail + ")", ""
}

// describeError renders a JSON-RPC error answer as "error -32602 "msg"".
func describeError(body []byte) string {
	m, err := protocol.Decode(body)
	if err != nil || m.Error == nil {
		return notAnError
	}
	return describeRPC(m.Error.Code, m.Error.Message)
}

// describeAnswer renders a read's JSON-RPC error answer as describeError
// does; an error member with neither code nor message (an "error": null)
// is no JSON-RPC error.
func describeAnswer(a *client.Answer) string {
	if a.Code == 0 && a.Reason == "" {
		return notAnError
	}
	return describeRPC(a.Code, a.Reason)
}

// notAnError is how describeError says that an answer is no JSON-RPC
// error.
const notAnError = "an answer that is not a JSON-RPC error"

// describeRPC renders a JSON-RPC error's code and message, the message
// clipped for a row.
func describeRPC(code int, msg string) string {
	if r := []rune(msg); len(r) > 120 {
		msg = string(r[:120]) + "…"
	}
	return fmt.Sprintf("error %d %q", code, msg)
}
