package record

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/readbench/readbench/targets"
)

// OAuth through the proxy (MCP authorization: RFC 9728 protected resource
// metadata, RFC 8414 authorization server metadata, RFC 8707 resource
// indicators). A client pointed at the proxy must discover, log in and
// read through it, never be sent past it to the upstream, and end with a
// token the upstream accepts. So the proxy stands for the upstream's
// origin:
//
//   - every request under /.well-known/, and to a path the upstream's own
//     metadata named on its origin (/authorize, /token, /register…), goes
//     to that path of the upstream's origin, not to the MCP endpoint;
//   - in what comes back (the WWW-Authenticate challenge, a redirect's
//     Location and its query, the JSON of a metadata document) every URL
//     on the upstream's origin is put on the proxy's, so resource_metadata,
//     resource, authorization_servers, issuer and the endpoints name the
//     proxy, and RFC 9207's iss matches the issuer the client was shown;
//   - in what goes there (the query and a form body), every URL on the
//     proxy's origin is put back on the upstream's, so the resource
//     indicator a token is asked for is the upstream's and the token's
//     audience is what the upstream checks.
//
// An authorization server on another origin is stood for under a path of
// the proxy's (oauthforeign.go).

// maxMetadata bounds an OAuth answer the proxy rewrites, and a form body
// it reads (metadata documents and token answers are a few KiB).
const maxMetadata = 1 << 20

// oauthPaths are the paths of the upstream's origin the proxy forwards as
// they are, learnt from the metadata that named them.
type oauthPaths struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (o *oauthPaths) add(path string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.paths == nil {
		o.paths = map[string]bool{}
	}
	o.paths[path] = true
}

func (o *oauthPaths) has(path string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.paths[path]
}

// isOAuth reports whether a request to path is for the upstream's origin
// (its metadata or its authorization server) rather than its MCP endpoint.
func (p *HTTP) isOAuth(path string) bool {
	if path == p.upPath {
		return false
	}
	return strings.HasPrefix(path, "/.well-known/") || strings.HasPrefix(path, foreignPrefix) || p.oauth.has(path)
}

// proxyOrigin is the origin the client reached the proxy at.
func proxyOrigin(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// serveOAuth forwards a request for the upstream's origin, each way
// rewritten (see above). It is never recorded: it is not MCP.
func (p *HTTP) serveOAuth(w http.ResponseWriter, r *http.Request) {
	here := proxyOrigin(r)
	body, err := io.ReadAll(io.LimitReader(r.Body, maxMetadata+1))
	if err != nil || len(body) > maxMetadata {
		http.Error(w, "readbench record: an authorization request over 1 MiB, or unreadable", http.StatusBadRequest)
		return
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "application/x-www-form-urlencoded" {
		if form, err := url.ParseQuery(string(body)); err == nil {
			body = []byte(p.swapValues(form, func(v string) string { return p.toServer(v, here) }).Encode())
		}
	}
	target := p.upOrigin + r.URL.EscapedPath()
	origin, rest, foreign := p.foreign.route(r.URL.EscapedPath())
	if foreign {
		target = origin + rest
	}
	if r.URL.RawQuery != "" {
		if q, err := url.ParseQuery(r.URL.RawQuery); err == nil {
			target += "?" + p.swapValues(q, func(v string) string { return p.toServer(v, here) }).Encode()
		} else {
			target += "?" + r.URL.RawQuery
		}
	}
	up, err := http.NewRequestWithContext(r.Context(), r.Method, target, bytes.NewReader(body))
	if err != nil {
		http.Error(w, "readbench record: "+err.Error(), http.StatusBadGateway)
		return
	}
	up.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		up.Header.Del(h)
	}
	up.ContentLength = int64(len(body))
	resp, err := p.rt.RoundTrip(up)
	if err != nil {
		http.Error(w, "readbench record: upstream: "+targets.RedactSecrets(err.Error()), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	if err != nil || len(out) > maxMetadata {
		http.Error(w, "readbench record: the upstream's authorization answer is over 1 MiB, or broke off", http.StatusBadGateway)
		return
	}
	if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); ct == "application/json" || strings.HasSuffix(ct, "+json") {
		out = p.swapJSON(out, here, !foreign)
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	p.swapHeaders(w.Header(), here)
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(resp.StatusCode)
	w.Write(out) // the client gone: nothing to record
}

// swapHeaders puts the upstream's origin on the proxy's in the headers
// that name URLs for the client to follow: the challenge's
// resource_metadata and a redirect (with its query, for RFC 9207's iss).
func (p *HTTP) swapHeaders(h http.Header, here string) {
	for i, v := range h.Values("WWW-Authenticate") {
		h["Www-Authenticate"][i] = p.toClient(v, here)
	}
	if loc := h.Get("Location"); loc != "" {
		if u, err := url.Parse(loc); err == nil {
			u.RawQuery = p.swapValues(u.Query(), func(v string) string { return p.toClient(v, here) }).Encode()
			h.Set("Location", p.toClient(u.String(), here))
		}
	}
}

// swapJSON puts every string of a JSON document that is a URL on an
// origin the proxy stands for on the proxy's, and learns the paths it
// names on the upstream's (its authorization server's endpoints) as paths
// to forward; a document from the upstream's origin (fromUpstream) also
// names the foreign authorization servers to stand for. A body that is
// not JSON passes unchanged.
func (p *HTTP) swapJSON(body []byte, here string, fromUpstream bool) []byte {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return body
	}
	v = p.swapAny(v, here, fromUpstream)
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

func (p *HTTP) swapAny(v any, here string, fromUpstream bool) any {
	switch x := v.(type) {
	case string:
		if !onOrigin(x, p.upOrigin) {
			return p.foreignToClient(x, here)
		}
		if u, err := url.Parse(x); err == nil && u.Path != "" && u.Path != p.upPath && !strings.HasPrefix(u.Path, "/.well-known/") {
			p.oauth.add(u.Path)
		}
		return here + x[len(p.upOrigin):]
	case []any:
		for i := range x {
			x[i] = p.swapAny(x[i], here, fromUpstream)
		}
	case map[string]any:
		if fromUpstream {
			p.learnServers(x["authorization_servers"])
		}
		for k := range x {
			x[k] = p.swapAny(x[k], here, fromUpstream)
		}
	}
	return v
}

// swapValues replaces each value by swap's of it (toServer, toClient).
func (p *HTTP) swapValues(q url.Values, swap func(string) string) url.Values {
	for k, vs := range q {
		for i, v := range vs {
			q[k][i] = swap(v)
		}
	}
	return q
}

// swapOrigin replaces, in a text such as a challenge, every URL on origin
// from by the same URL on origin to.
func swapOrigin(s, from, to string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, from)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		if onOrigin(s[i:], from) {
			b.WriteString(to)
		} else {
			b.WriteString(from)
		}
		s = s[i+len(from):]
	}
}

// onOrigin reports whether s begins with a URL on origin: the origin,
// then its end or a path, query or fragment (not another port's digits).
func onOrigin(s, origin string) bool {
	if !strings.HasPrefix(s, origin) {
		return false
	}
	rest := s[len(origin):]
	return rest == "" || strings.ContainsRune("/?#\"' ,;", rune(rest[0]))
}
