package contract

import (
	"context"
	"fmt"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// malformedURIs are not URIs at all: a space-separated phrase and a
// string of colons (no scheme, no path).
func malformedURIs() []string { return []string{"not a uri", "::::"} }

// malformed reads URIs that are not URIs: -32602 in both eras.
func (c *checker) malformed(ctx context.Context) {
	for _, uri := range malformedURIs() {
		p := c.errorProbe(ctx, uri)
		switch {
		case p.failed != "":
			c.rep.add("malformed uri", results.CheckFail, uri, p.failed)
		case p.code == protocol.CodeInvalidParams:
			c.rep.add("malformed uri", results.CheckPass, uri, p.got)
		default:
			c.rep.add("malformed uri", results.CheckFail, uri, p.got+"; a malformed URI is -32602 (invalid params)")
		}
	}
}

// errorProbe reads uri expecting an error: the JSON-RPC code (0 when the
// answer was not an error), what a run counts the answer as, a
// description of the answer, or why the read got no answer at all.
func (c *checker) errorProbe(ctx context.Context, uri string) probe {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	p := probe{uri: uri}
	a, err := c.s.ReadDocument(rctx, uri, client.ReadSpec{})
	switch {
	case err != nil:
		p.failed = err.Error()
		return p
	case !a.Answered:
		p.failed = a.Detail
		return p
	}
	p.outcome = a.Outcome
	switch {
	case a.Code != 0:
		p.code, p.got = a.Code, describeAnswer(a)
	case a.Outcome == stats.OK:
		p.got = fmt.Sprintf("answered ok (%d %s, %d bytes)", a.Entries, plural(a.Entries, "entry", "entries"), a.DiskBytes)
	case a.Outcome == stats.InputRequired:
		p.got = "answered input_required"
	case a.Outcome == stats.Protocol:
		p.got = "answered neither contents nor an error (" + a.Reason + ")"
	default:
		p.got = "answered neither contents nor an error (" + a.Detail + ")"
	}
	return p
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
