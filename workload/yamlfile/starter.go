package yamlfile

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/readbench/readbench/workload"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// groupByType is the listing's groups of a known type, and how many
// resources have none.
func groupByType(res []workload.Resource) (groups []*workload.TypeGroup, untyped int) {
	for _, g := range workload.GroupByType(res) {
		if g.MIME == "" {
			untyped = g.N
			continue
		}
		groups = append(groups, g)
	}
	return groups, untyped
}

// StarterInput is what `readbench init` discovered of a target: its
// listing and what the server said of itself. Plain data, so that this
// package knows nothing of the driver that discovered it.
type StarterInput struct {
	TargetText      string // the target as the user wrote it
	Target          targets.Target
	Headers         map[string]string // literal values are never written
	OAuth           *workload.OAuth   // the --oauth-* flags init was given (nil: none); a literal secret is never written
	Server, Version string            // serverInfo
	ProtocolVersion string
	Pages, Sampled  int      // listing pages read; sizes learned by reading
	Warnings        []string // discovery warnings, written as comments
	Resources       []workload.Resource
	Templates       []StarterTemplate
}

// StarterTemplate is one resources/templates/list entry.
type StarterTemplate struct {
	URITemplate, Name string
}

// Starter writes the commented workload for what a target lists, and
// checks that it parses: a starter file that does not run is worse than
// none.
func Starter(cat StarterInput) ([]byte, error) {
	targetText, target, headers := cat.TargetText, cat.Target, cat.Headers
	groups, untyped := groupByType(cat.Resources)
	if len(groups) == 0 {
		return nil, fmt.Errorf("%s lists no resource of a known MIME type (%d listed, %d templates): nothing to build a mix from; write classes with uri, uris or template",
			targetText, len(cat.Resources), len(cat.Templates))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# A starter workload written by `readbench init` from what the target lists.\n")
	fmt.Fprintf(&b, "# Server %s %s, protocol %s: %d resources of %d MIME types in %d page(s) of\n",
		orUnknown(cat.Server), orUnknown(cat.Version), cat.ProtocolVersion, len(cat.Resources), len(groups), cat.Pages)
	fmt.Fprintf(&b, "# resources/list, %d sized by a sampled read; %d templates. Edit freely, then:\n", cat.Sampled, len(cat.Templates))
	fmt.Fprintf(&b, "#   readbench run THIS-FILE.yaml\n")
	for _, w := range cat.Warnings {
		fmt.Fprintf(&b, "# Discovery warning: %s\n", w)
	}
	targetNote := "embedded | stdio:CMD ARG... | http(s)://HOST:PORT/PATH"
	if w := MaskedTargetWarning(targetText); w != "" {
		fmt.Fprintf(&b, "# WARNING: %s\n", wrapComment(w, "# "))
		targetNote = "secrets masked (xxxxx): see the warning above"
	}
	name := slug(strings.ToLower(cat.Server), "-")
	kv(&b, 0, "name", yq(cmp.Or(name, "server")+"-starter"), "recorded in results")
	kv(&b, 0, "description", yq("Starter workload for "+orUnknown(cat.Server)+", written by readbench init"), "one line, shown by readbench scenarios")
	kv(&b, 0, "target", yq(targets.RedactSecrets(targetText)), targetNote)
	kv(&b, 0, "protocol", "auto", "auto detects the era; a version such as 2025-11-25 forces one")
	kv(&b, 0, "sessions", "1", "MCP sessions (stdio: a child process each); turns spread over them")
	kv(&b, 0, "seed", "1", "same seed, same classes and URIs in the same order: runs compare")
	writeAccess(&b, target, headers)
	writeOAuth(&b, cat.OAuth)
	b.WriteString("load:\n")
	kv(&b, 2, "model", "open", "open: turns start at the rate, whatever is in flight, as users arrive")
	kv(&b, 2, "rate", "5/s", "turns per second: start modest, raise it, or let readbench capacity find the knee")
	kv(&b, 2, "arrival", "constant", "constant | poisson (the bursts real users make)")
	kv(&b, 2, "warmup", "2s", "run first and recorded apart from the totals")
	kv(&b, 2, "duration", "30s", "the measured run (or turns: N)")
	kv(&b, 2, "max_in_flight", "1000", "beyond it a turn's reads are counted as dropped, never started late")
	b.WriteString("turn:\n")
	kv(&b, 2, "attachments", "4", "reads in parallel per turn, or weighted: {1: 50, 4: 40, 10: 10}")
	kv(&b, 2, "read_timeout", "5s", "per read: slow versus never")
	kv(&b, 2, "deadline", "800ms", "the turn's deadline: reads still pending are cancelled")
	b.WriteString("mix:\n")
	b.WriteString("  # One class per MIME type listed. weight: the type's share of the listing (%).\n" +
		"  # mime: a type or a glob (image/*, */*). size: the decoded sizes to draw from:\n" +
		"  # MIN..MAX as observed, <=MAX, >=MIN or any. Each read draws one matching\n" +
		"  # resource, uniformly; resources of unknown size match only size: any.\n")
	writeClasses(&b, groups, workload.AnsweredByType(cat.Resources))
	if untyped > 0 {
		fmt.Fprintf(&b, "  # %d listed resources have no MIME type (nor did a sampled read say): no class reads them.\n", untyped)
	}
	writeTemplates(&b, cat.Templates)
	fmt.Fprintf(&b, "  # A renamed or deleted resource: how fast the server says not-found.\n"+
		"  # - class: not-found\n  #   weight: 1\n  #   uri: %s\n  #   expect: not_found\n", yq(missingURI(cat.Resources)))
	b.WriteString("# thresholds: {turn.p99: \"<800ms\", read.p99: \"<200ms\", errors: \"<1%\"}  # a broken bound exits 1\n")
	if _, err := Parse("<init>", b.Bytes()); err != nil { // a masked target is refused later, by a run (MaskedTargetWarning)
		return nil, fmt.Errorf("the starter workload does not parse (a readbench bug): %w", err)
	}
	return b.Bytes(), nil
}

// MaskedTargetWarning says, when the target holds a secret (a URL's
// password, in a stdio command's argument too: npx
// @modelcontextprotocol/server-postgres postgresql://user:secret@host/db),
// that the starter writes it masked, as readbench writes it everywhere,
// and how to run the file: the target given again with --target, or the
// secret moved where the server reads it from its environment. "" when
// the target holds none. A ${VAR} is no way out: a target is not expanded
// (docs/workload.md#targets). init prints it too.
func MaskedTargetWarning(targetText string) string {
	masked := targets.RedactSecrets(targetText)
	if masked == targetText {
		return ""
	}
	return "the target's secrets are written masked (" + targets.Masked + "), as readbench writes them everywhere: " +
		"this file runs once --target gives the target whole (readbench run FILE --target '…'), and refuses to run before; " +
		"better, export the secret where the server reads it from its environment (PGPASSWORD for a PostgreSQL URL) " +
		"and leave it off the command line"
}

// wrapComment wraps a comment's text at about 96 columns, each new line
// starting with prefix.
func wrapComment(text, prefix string) string {
	var b strings.Builder
	col := 0
	for i, w := range strings.Fields(text) {
		if i > 0 && col+1+len(w) > 96 {
			b.WriteString("\n" + prefix)
			col = len(prefix)
		} else if i > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// writeAccess writes what a run needs to be let in: the host of a target
// that is not loopback, and the header names (an env reference is kept;
// a literal value is a secret and becomes a ${VAR} to set).
func writeAccess(b *bytes.Buffer, target targets.Target, headers map[string]string) {
	if u, err := url.Parse(target.Address); err == nil && u.Hostname() != "" && !protocol.IsLoopbackHost(u.Hostname()) {
		kv(b, 0, "allow_hosts", "["+yq(u.Hostname())+"]", "a target that is not loopback must be named here")
	}
	if len(headers) == 0 {
		return
	}
	b.WriteString("headers:                        # ${VAR} is expanded from the environment; values are never saved\n")
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		v, note := headers[name], ""
		if !strings.Contains(v, "${") {
			env := "READBENCH_" + strings.ToUpper(slug(name, "_"))
			v, note = "${"+env+"}", "set "+env+" (the value given to init is not written here)"
		}
		kv(b, 2, yq(name), yq(v), note)
	}
}

// writeOAuth writes the auth block init got in with, so that the starter
// runs as init did: every key given, and the client secret as a ${VAR}
// to set (a literal secret is never written; an env reference is kept).
func writeOAuth(b *bytes.Buffer, o *workload.OAuth) {
	if o == nil {
		return
	}
	b.WriteString("auth:                           # how init got in (readbench login caches a person's tokens instead)\n  oauth:\n")
	kv(b, 4, "grant", yq(cmp.Or(o.Grant, workload.OAuthGrants[0])), "client_credentials | authorization_code (readbench login's cached tokens)")
	for _, f := range []struct{ key, v, note string }{
		{"client_id", o.ClientID, ""}, {"scope", o.Scope, "space-separated"},
		{"private_key", o.PrivateKey, "a PEM file: private_key_jwt"}, {"token_endpoint_auth", o.TokenEndpointAuth, ""},
	} {
		if f.v != "" {
			kv(b, 4, f.key, yq(f.v), f.note)
		}
	}
	if s := o.ClientSecret; s != "" {
		note := ""
		if !strings.Contains(s, "${") {
			s, note = "${READBENCH_OAUTH_CLIENT_SECRET}", "set READBENCH_OAUTH_CLIENT_SECRET (the secret given to init is not written here)"
		}
		kv(b, 4, "client_secret", yq(s), note)
	}
	if len(o.TokenParams) > 0 {
		b.WriteString("    token_params:\n")
		for _, k := range slices.Sorted(maps.Keys(o.TokenParams)) {
			vs := make([]string, 0, len(o.TokenParams[k]))
			for _, v := range o.TokenParams[k] {
				if targets.SecretName(k) && !strings.Contains(v, "${") {
					v = "${READBENCH_OAUTH_" + strings.ToUpper(slug(k, "_")) + "}"
				}
				vs = append(vs, yq(v))
			}
			kv(b, 6, yq(k), "["+strings.Join(vs, ", ")+"]", "")
		}
	}
}

// writeClasses writes one class per MIME type, with a warning on a class
// whose reads answered another type than the listed one (answered): the
// listed type stays, since a class's mime selects resources by it, and the
// comment says what the reads will be.
func writeClasses(b *bytes.Buffer, groups []*workload.TypeGroup, answered []workload.AnsweredTypes) {
	total := 0
	for _, g := range groups {
		total += g.N
	}
	used := map[string]bool{}
	for _, g := range groups {
		typ, sub, _ := strings.Cut(g.MIME, "/")
		name := slug(strings.TrimPrefix(sub, "vnd."), "-")
		if name == "" || used[name] {
			name = slug(typ+"-"+sub, "-")
		}
		for base, k := name, 2; used[name]; k++ {
			name = base + "-" + strconv.Itoa(k)
		}
		used[name] = true
		weight := max(math.Round(1000*float64(g.N)/float64(total))/10, 0.1)
		size, note := "any", "no size known: every resource of the type"
		if g.Sized > 0 {
			size = roughSize(g.MinSize, false) + ".." + roughSize(g.MaxSize, true)
			note = fmt.Sprintf("observed %d..%d bytes over %d", g.MinSize, g.MaxSize, g.Sized)
			if g.Read > 0 {
				note += fmt.Sprintf(" (%d sized by a read)", g.Read)
			}
			if g.Sized < g.N {
				note += fmt.Sprintf("; %d of unknown size need size: any", g.N-g.Sized)
			}
		}
		fmt.Fprintf(b, "  - class: %s\n", yplain(name))
		kv(b, 4, "weight", strconv.FormatFloat(weight, 'f', -1, 64), fmt.Sprintf("%d of %d listed resources", g.N, total))
		for _, a := range answered {
			if a.Listed == g.MIME {
				fmt.Fprintf(b, "    # WARNING: listed as %s, but %d of %d reads answered another mimeType: %s.\n"+
					"    # mime selects resources by their listed type, so it stays %s (another type\n"+
					"    # would match nothing); the reads, and the class's figures, are of what is answered.\n",
					g.MIME, a.Contradicted(), a.Reads, a, g.MIME)
			}
		}
		kv(b, 4, "mime", yplain(g.MIME), "")
		kv(b, 4, "size", size, note)
	}
}

// templateVars returns the variable names of an RFC 6570 template, in
// order: "{+path}", "{?q,lang}" and "{list*}" included.
func templateVars(t string) []string {
	var vars []string
	for rest := t; ; {
		_, after, ok := strings.Cut(rest, "{")
		if !ok {
			return vars
		}
		expr, tail, _ := strings.Cut(after, "}")
		rest = tail
		for _, v := range strings.Split(strings.TrimLeft(expr, "+#./;?&"), ",") {
			v = strings.TrimSuffix(strings.SplitN(v, ":", 2)[0], "*")
			if v != "" && !slices.Contains(vars, v) {
				vars = append(vars, v)
			}
		}
	}
}

// writeTemplates lists the server's templates as commented classes.
func writeTemplates(b *bytes.Buffer, templates []StarterTemplate) {
	if len(templates) == 0 {
		return
	}
	b.WriteString("  # Templates the server offers (resources/templates/list): give each\n" +
		"  # variable values that exist, then uncomment.\n")
	for i, t := range templates {
		vars := templateVars(t.URITemplate)
		for k, v := range vars {
			vars[k] = v + ": [VALUE]"
		}
		name := slug(strings.ToLower(t.Name), "-")
		fmt.Fprintf(b, "  # - class: %s\n  #   weight: 1\n  #   template: %s\n  #   vars: {%s}\n",
			yplain(cmp.Or(name, "template-"+strconv.Itoa(i+1))), yq(t.URITemplate), strings.Join(vars, ", "))
	}
}

// missingURI makes a URI the target should not have, in the form of its
// own: the first listed URI with its last path segment replaced. The
// simulated server synthesizes any sim: URI, so it gets another scheme.
func missingURI(res []workload.Resource) string {
	const fallback = "docs://readbench-init/no-such-resource"
	if len(res) == 0 {
		return fallback
	}
	u, err := url.Parse(res[0].URI)
	if err != nil || u.Scheme == "" || u.Scheme == "sim" || u.Opaque != "" {
		return fallback
	}
	u.RawQuery, u.Fragment, u.RawPath = "", "", ""
	dir := u.Path[:strings.LastIndex(u.Path, "/")+1]
	u.Path = cmp.Or(dir, "/") + "readbench-no-such-resource"
	return u.String()
}

// slug keeps the letters and digits of s, joining the runs between them
// with sep: a class name from a MIME type, an environment variable from a
// header name.
func slug(s, sep string) string {
	var b strings.Builder
	gap := false
	for _, r := range s {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			if gap && b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteRune(r)
			gap = false
		} else {
			gap = true
		}
	}
	return b.String()
}

// kv writes one "key: value  # comment" line, comments aligned.
func kv(w io.Writer, indent int, key, value, comment string) {
	line := strings.Repeat(" ", indent) + key + ": " + value
	if comment != "" {
		line += strings.Repeat(" ", max(32-len(line), 1)) + "# " + comment
	}
	fmt.Fprintln(w, line)
}

// roughSize writes n bytes in the largest IEC unit it reaches, with one
// decimal, rounded down (or up) so that the range it bounds still holds n:
// "5.7KiB" rather than 5891, which no one reads at a glance.
func roughSize(n int64, up bool) string {
	unit, name := int64(1), ""
	for _, u := range []struct {
		mult int64
		name string
	}{{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.mult {
			unit, name = u.mult, u.name
			break
		}
	}
	if unit == 1 {
		return strconv.FormatInt(n, 10)
	}
	tenths := float64(n) * 10 / float64(unit)
	if up {
		tenths = math.Ceil(tenths)
	} else {
		tenths = math.Floor(tenths)
	}
	return strconv.FormatFloat(tenths/10, 'f', -1, 64) + name
}

// yplain writes a scalar plain when YAML reads it back as the same
// string (a class name, a MIME type), quoted otherwise.
func yplain(s string) string {
	switch strings.ToLower(s) {
	case "", "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~":
		return yq(s)
	}
	if s[0] < 'a' || s[0] > 'z' {
		return yq(s)
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("-./+*", r)) {
			return yq(s)
		}
	}
	return s
}

// yq quotes a YAML scalar: Go's quoting is valid YAML double-quoted style.
func yq(s string) string { return strconv.Quote(s) }

func orUnknown(s string) string { return cmp.Or(s, "(unknown)") }
