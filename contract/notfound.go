package contract

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// The not-found rows (docs/check.md): what a host gets when it reads a
// resource that does not exist. A generic probe of readbench's own shape
// may match none of the server's templates, so a router answers it
// (the Go SDK's -32602 "Resource not found") whatever the server's
// handlers answer for a missing resource under a real template (an sqlite
// server's -32603 "Table … not found"). So probes of the server's own
// shapes — each listed URI shape and each listed template, with a name
// that cannot exist — are held to the same rule, and the generic probe
// passes only when none of them contradicts it.

// probe is what one not-found probe's read found.
type probe struct {
	uri     string
	code    int           // the JSON-RPC error code (0: the answer was no error)
	outcome stats.Outcome // what a run counts the answer as
	got     string        // the answer described
	failed  string        // why no answer came ("" when one did)
	// template is the listed template the URI is an instance of, when the
	// probe was made from one ("" for the generic probe and the listing's
	// shapes): an ok answer to it may be an instance that exists.
	template string
}

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

// notFoundRule judges a not-found probe's answer by its era: a legacy
// server answers -32002, a 2026-07-28 one -32602 (which retired -32002).
// served is how many sampled reads were answered ok, which tells a
// misused -32601 from a missing method.
type notFoundRule struct {
	modern  bool
	version string
	served  int
}

func (c *checker) notFoundRule() notFoundRule {
	return notFoundRule{modern: c.s.Modern(), version: c.s.ProtocolVersion(), served: c.served}
}

// judge holds one answer to the not-found rule: the era's code passes;
// a legacy -32602 worded as missing passes with the difference named;
// anything else fails, and the detail says what a run counts the answer
// as when that is not not_found (a -32603 is internal, so a class's
// expect: not_found is never met by it).
func (r notFoundRule) judge(p probe) (results.CheckStatus, string) {
	want, era := protocol.CodeResourceNotFound, "a "+r.version+" server answers -32002"
	if r.modern {
		want, era = protocol.CodeInvalidParams, "a 2026-07-28 server answers -32602 (-32002 is retired)"
	}
	switch {
	case p.failed != "":
		return results.CheckFail, p.failed
	case p.code == want:
		return results.CheckPass, p.got
	case p.code == protocol.CodeInvalidParams && client.SaysNotFound(p.got):
		// The official SDKs answer -32602 in every era since SEP-2164;
		// a host that follows the specification of its era still has to
		// expect it, so it passes with the difference named.
		return results.CheckPass, p.got + " (-32602, as the SDKs answer in every era since SEP-2164; this era's code is -32002)"
	case p.code == protocol.CodeMethodNotFound && r.served > 0 && client.SaysResourceMissing(p.got):
		// fastmcp 4.20.16: a server that has just answered reads says
		// its method is missing when a resource is.
		return results.CheckFail, p.got + "; " + misusedCode + ", yet it answered " +
			fmt.Sprintf("%d sampled %s", r.served, plural(r.served, "read", "reads")) + "; " + era
	case p.code == 0:
		return results.CheckFail, p.got + " for a URI that cannot exist; " + era
	}
	d := p.got + "; " + era
	switch p.outcome {
	case stats.Internal, stats.InvalidParams, stats.RPCError, stats.MethodNotFound:
		d += fmt.Sprintf("; a run counts this answer %s, not not_found (a class's expect: not_found is not met)", p.outcome)
	}
	return results.CheckFail, d
}

// shaped judges a probe of the server's own shape: an error is held to
// the not-found rule; an ok answer fails for the listing's shape (a host
// cannot tell a missing resource from an empty one) and is a skip for a
// template (every instance of it may exist: a generator).
func (r notFoundRule) shaped(p probe) (results.CheckStatus, string) {
	switch {
	case p.failed != "", p.code != 0:
		return r.judge(p)
	case p.outcome == stats.OK && p.template != "":
		return results.CheckSkip, p.got + " for an instance of " + p.template + " named " + noSuchName +
			": every instance of this template may exist, so no missing one could be probed"
	case p.outcome == stats.OK:
		return results.CheckFail, p.got + " for a URI of the listing's shape that cannot exist: a host cannot tell it from an empty resource; want the era's not-found error"
	case p.outcome == stats.InputRequired:
		return results.CheckSkip, p.got + ": it wants input readbench cannot give"
	}
	return results.CheckFail, p.got
}

// misusedCode is what the not-found rows say of a server that answers a
// missing resource with -32601 while it serves reads: the code of a
// missing method, which a client takes for a server without
// resources/read.
const misusedCode = "the server answers a missing resource with -32601 (Method not found); a client would conclude resources/read is absent"

// judgedProbe is a shaped probe with its verdict.
type judgedProbe struct {
	probe
	status results.CheckStatus
	detail string
}

// generic judges the generic probe g beside the shaped probes: it passes
// only when the rule passes it and no shaped probe failed (a host gets
// what the server answers under its own shapes). A -32602 that no shaped
// probe confirmed, for a URI that matches none of the listed templates,
// is a skip: it may be a router's answer for a URI no template matches.
// On a server that serves any sim: URI, every other URI is missing by
// its declaration, so the generic answer stands alone.
func (r notFoundRule) generic(g probe, shaped []judgedProbe, templates []string, sim bool) (results.CheckStatus, string) {
	st, d := r.judge(g)
	if st != results.CheckPass {
		return st, d
	}
	passed := 0
	for _, s := range shaped {
		switch s.status {
		case results.CheckFail:
			verb := "gets "
			if strings.HasPrefix(s.got, "answered ") || s.got == "" {
				verb = "is "
			}
			what := cmpOr(s.got, s.failed)
			return results.CheckFail, d + "; but a missing resource of the server's own shape " + verb + what + " (" + s.uri +
				"): a host gets that, not this (not-found shaped)"
		case results.CheckPass:
			passed++
		}
	}
	if passed > 0 {
		return results.CheckPass, d + fmt.Sprintf("; %d %s of the server's own shapes got a not-found error too (not-found shaped)",
			passed, plural(passed, "probe", "probes"))
	}
	if !sim && g.code == protocol.CodeInvalidParams && len(templates) > 0 &&
		!slices.ContainsFunc(templates, func(t string) bool { return workload.MatchesTemplate(t, g.uri) }) {
		return results.CheckSkip, d + "; readbench's own URI matches none of the server's templates: it may be the router's answer for a URI no template matches, " +
			"not what a host gets for a missing resource, and no probe of the server's own shape could tell"
	}
	return st, d
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return "no answer: " + b
}

// notFoundRows reads the generic probe and the probes of the server's own
// shapes, then adds the not-found error row and one not-found shaped row
// per shaped probe.
func (c *checker) notFoundRows(ctx context.Context) {
	const row = "not-found shaped"
	rule := c.notFoundRule()
	g := c.errorProbe(ctx, c.notFoundURI())
	var shaped []judgedProbe
	if !c.sim {
		for _, s := range c.shapedProbes() {
			if ctx.Err() != nil {
				return
			}
			p := c.errorProbe(ctx, s.uri)
			p.template = s.template
			st, d := rule.shaped(p)
			shaped = append(shaped, judgedProbe{p, st, d})
		}
	}
	st, d := rule.generic(g, shaped, c.templates, c.sim)
	c.rep.add("not-found error", st, g.uri, d)
	switch {
	case c.sim:
		c.rep.add(row, results.CheckNA, "", "the server serves any sim: URI: no URI of its listing's shape is missing")
	case len(shaped) == 0:
		c.rep.add(row, results.CheckSkip, "", "no listed URI has a path segment or authority to change, and no listed template can be expanded")
	}
	for _, s := range shaped {
		c.rep.add(row, s.status, s.uri, s.detail)
	}
}

// shapedProbe is a URI of the server's own shape that cannot exist, and
// the template it was made from ("" for the listing's shape).
type shapedProbe struct{ uri, template string }

// shapedProbes are the listing's shapes (shapedNotFoundURIs), then one
// instance of each listed template with every variable named noSuchName,
// each URI once.
func (c *checker) shapedProbes() []shapedProbe {
	var uris []string
	for _, r := range c.listed {
		uris = append(uris, r.URI)
	}
	var out []shapedProbe
	for _, u := range shapedNotFoundURIs(uris, maxShapedProbes) {
		out = append(out, shapedProbe{uri: u})
	}
	for _, t := range c.templates[:min(len(c.templates), maxTemplates)] {
		u := missingInstance(t)
		if u != "" && !slices.ContainsFunc(out, func(p shapedProbe) bool { return p.uri == u }) {
			out = append(out, shapedProbe{uri: u, template: t})
		}
	}
	return out
}

// missingInstance is an instance of a listed template that names nothing:
// every variable is noSuchName, wherever it stands (a path segment, the
// authority of videos://{id}). "" when the template has no variable or
// cannot be expanded.
func missingInstance(tmpl string) string {
	names, err := workload.TemplateNames(tmpl)
	if err != nil || len(names) == 0 {
		return ""
	}
	vals := map[string]string{}
	for _, n := range names {
		vals[n] = noSuchName
	}
	uri, err := workload.ExpandTemplate(tmpl, vals)
	if err != nil {
		return ""
	}
	return uri
}

// noSuchName is the path segment a shaped not-found probe puts in place
// of a listed one: a name no server has.
const noSuchName = "readbench-no-such-7f3a9c"

// maxShapedProbes bounds the shaped not-found probes of the listing's
// shapes (each listed template adds one more).
const maxShapedProbes = 5

// shapedNotFoundURIs returns URIs shaped like the listed ones, each with
// one path segment changed to a name that cannot exist (its extension
// kept): among listed URIs of one scheme, authority and depth, the last
// segment that differs between them (the name: "users" in
// postgres://h/users/schema), else the last one. A listed URI without a
// path (videos://42) has its authority changed instead, when it is a
// plain host (no user, no port). Query and fragment are dropped. One
// probe per shape, in listing order, at most max.
func shapedNotFoundURIs(listed []string, max int) []string {
	type shape struct {
		u    *url.URL
		segs []string
		host bool // segs is the authority alone
	}
	var shapes []shape
	groups := map[string][]int{}
	var order []string
	for _, s := range listed {
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || u.Opaque != "" {
			continue
		}
		sh := shape{u: u}
		key := ""
		switch p := u.EscapedPath(); {
		case p == "" || p == "/":
			if u.Host == "" || u.User != nil || u.Port() != "" {
				continue // no segment to change (file:///, postgres://u@h)
			}
			sh.segs, sh.host, key = []string{u.Host}, true, u.Scheme+"://"
		default:
			sh.segs = strings.Split(strings.TrimPrefix(p, "/"), "/")
			if sh.segs[len(sh.segs)-1] == "" {
				continue // no segment to change (file:///dir/)
			}
			key = fmt.Sprintf("%s://%s/%d", u.Scheme, u.Host, len(sh.segs))
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], len(shapes))
		shapes = append(shapes, sh)
	}
	var out []string
	for _, key := range order {
		members := groups[key]
		depth := len(shapes[members[0]].segs)
		at := depth - 1
	find:
		for i := depth - 1; i >= 0; i-- {
			for _, m := range members[1:] {
				if shapes[m].segs[i] != shapes[members[0]].segs[i] {
					at = i
					break find
				}
			}
		}
		for _, m := range members {
			u := *shapes[m].u
			u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
			if shapes[m].host {
				u.Host = noSuchName
			} else {
				segs := slices.Clone(shapes[m].segs)
				segs[at] = noSuchName + path.Ext(segs[at])
				p, _ := url.PathUnescape("/" + strings.Join(segs, "/"))
				u.Path, u.RawPath = p, "/"+strings.Join(segs, "/")
			}
			probe := u.String()
			if !slices.Contains(out, probe) {
				out = append(out, probe)
			}
			if len(out) == max {
				return out
			}
		}
	}
	return out
}
