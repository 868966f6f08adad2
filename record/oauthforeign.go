package record

import (
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// An authorization server on another origin than the upstream's (a
// provider such as oidc-provider or Keycloak in front of the MCP server)
// is stood for too, under a path of the proxy's own origin: the n-th one
// the upstream's metadata names in its authorization_servers is
// /readbench-as/n on the proxy. Its issuer, its endpoints and the
// redirects it answers are put there, and what the client sends it (the
// RFC 8707 resource indicator above all) is put back on the upstream's
// origin on its way. A provider that binds a token to the resource then
// issues one for the upstream, which the upstream accepts; left to the
// client, it was asked for a token for the proxy's URL and refused it
// ("unknown resource"). Discovery finds it through the proxy by the
// usual rules for an issuer with a path (RFC 8414 §3.1, OpenID
// Connect Discovery): /.well-known/NAME/readbench-as/n and
// /readbench-as/n/.well-known/NAME.

// foreignPrefix is the path under which the proxy stands for the n-th
// foreign authorization server: foreignPrefix + "n".
const foreignPrefix = "/readbench-as/"

// maxForeign bounds the foreign origins stood for: an upstream names one
// or two; a hostile one cannot make the proxy forward to a thousand.
const maxForeign = 8

// foreignOrigins are the authorization servers' origins the proxy stands
// for, learnt from the upstream's metadata (never from a client: the
// proxy forwards to no origin a client names).
type foreignOrigins struct {
	mu      sync.Mutex
	origins []string
}

// prefix is the proxy path that stands for origin, learning it when
// learn is set; "" when it is not stood for.
func (f *foreignOrigins) prefix(origin string, learn bool) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, o := range f.origins {
		if o == origin {
			return foreignPrefix + strconv.Itoa(i+1)
		}
	}
	if !learn || len(f.origins) >= maxForeign {
		return ""
	}
	f.origins = append(f.origins, origin)
	return foreignPrefix + strconv.Itoa(len(f.origins))
}

// all is each origin stood for with its prefix.
func (f *foreignOrigins) all() (origins, prefixes []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, o := range f.origins {
		origins = append(origins, o)
		prefixes = append(prefixes, foreignPrefix+strconv.Itoa(i+1))
	}
	return origins, prefixes
}

// route is where a request for path on the proxy goes: the foreign
// origin and its path there, when path is under a foreign prefix, as is
// (/readbench-as/n/token) or after a well-known name
// (/.well-known/openid-configuration/readbench-as/n); ok false
// otherwise (the upstream's origin, path unchanged).
func (f *foreignOrigins) route(path string) (origin, rest string, ok bool) {
	origins, prefixes := f.all()
	for i, pre := range prefixes {
		if p, found := strings.CutPrefix(path, pre); found && (p == "" || p[0] == '/') {
			return origins[i], orSlash(p), true
		}
		if !strings.HasPrefix(path, "/.well-known/") {
			continue
		}
		name, after, _ := strings.Cut(path[len("/.well-known/"):], "/")
		if p, found := strings.CutPrefix("/"+after, pre); found && (p == "" || p[0] == '/') {
			return origins[i], "/.well-known/" + name + p, true
		}
	}
	return "", "", false
}

func orSlash(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// foreignOrigin is the origin of an http(s) URL s, when it is not on
// the upstream's origin ("" otherwise).
func (p *HTTP) foreignOrigin(s string) string {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	o := u.Scheme + "://" + u.Host
	if o == p.upOrigin {
		return ""
	}
	return o
}

// learnServers learns the foreign origins of an authorization_servers
// list in a document from the upstream's origin.
func (p *HTTP) learnServers(v any) {
	list, ok := v.([]any)
	if !ok {
		return
	}
	for _, s := range list {
		if str, ok := s.(string); ok {
			if o := p.foreignOrigin(str); o != "" {
				p.foreign.prefix(o, true)
			}
		}
	}
}

// toClient puts a URL (or a text such as a challenge) on the origins the
// proxy stands for onto the proxy's: the upstream's at here, a foreign
// authorization server's at here + its prefix.
func (p *HTTP) toClient(s, here string) string {
	origins, prefixes := p.foreign.all()
	for i, o := range origins {
		s = swapOrigin(s, o, here+prefixes[i])
	}
	return swapOrigin(s, p.upOrigin, here)
}

// foreignToClient puts a URL on a foreign origin the proxy stands for on
// its prefix of the proxy's origin; any other string passes unchanged.
func (p *HTTP) foreignToClient(s, here string) string {
	origins, prefixes := p.foreign.all()
	for i, o := range origins {
		if onOrigin(s, o) {
			return here + prefixes[i] + s[len(o):]
		}
	}
	return s
}

// toServer puts a value the client sent that is a URL on the proxy's
// origin back on the origin it stands for.
func (p *HTTP) toServer(v, here string) string {
	origins, prefixes := p.foreign.all()
	for i, o := range origins {
		if onOrigin(v, here+prefixes[i]) {
			return o + v[len(here+prefixes[i]):]
		}
	}
	if onOrigin(v, here) {
		return p.upOrigin + v[len(here):]
	}
	return v
}
