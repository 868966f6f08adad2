package targets

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/readbench/readbench/protocol"
)

// Aim says where sessions may go besides this machine: a load test aimed
// at the wrong host is an attack on someone else's server, and credentials
// sent in clear text over a network are lost. client.Connect checks it before any
// connection (no name is even resolved); the command line checks it first
// too, so that a refusal is a usage error.
type Aim struct {
	// AllowHosts are the hosts other than loopback a target may name: a
	// host name or address ("staging.example.com", "10.0.0.7"), or one
	// with a port ("staging.example.com:8443"), which then must match too.
	AllowHosts []string
	// InsecureCredentials lets headers (and a URL's user:password) go to
	// a host other than loopback over plain http://.
	InsecureCredentials bool
}

// AimError is a target refused before any connection. The message says
// how to allow it; the command line exits 2 (bad usage) with it.
type AimError struct {
	msg string
}

func (e *AimError) Error() string { return e.msg }

// ErrAim is wrapped by every *AimError, for errors.Is.
var ErrAim = errors.New("target not allowed")

// Unwrap makes an AimError match ErrAim.
func (e *AimError) Unwrap() error { return ErrAim }

// CheckAim reports why a session must not be opened to t with headers
// under aim, or nil. Processes on this machine (embedded, stdio) and
// loopback hosts are always allowed. It never resolves a name: an unknown
// host is refused as written.
func CheckAim(t Target, headers map[string]string, aim Aim) error {
	if t.Kind != HTTP && t.Kind != SSE && t.Kind != Files {
		return nil
	}
	u, err := url.Parse(t.Address)
	if err != nil {
		return fmt.Errorf("target %s: %w", t.Redacted(), err)
	}
	host := u.Hostname()
	if protocol.IsLoopbackHost(host) {
		return nil
	}
	if !slices.ContainsFunc(aim.AllowHosts, func(e string) bool { return allows(e, host, portOf(u)) }) {
		return &AimError{msg: fmt.Sprintf("target %s: %s is not this machine, and readbench loads another host only when told to: "+
			"add --allow-host %s to the command line, or allow_hosts: [%s] to the workload", t.Redacted(), host, hostEntry(host), hostEntry(host))}
	}
	creds := credentialNames(headers, u)
	if len(creds) > 0 && strings.EqualFold(u.Scheme, "http") && !aim.InsecureCredentials {
		return &AimError{msg: fmt.Sprintf("target %s: %s would go to %s in clear text over http://: "+
			"use https://, or add --insecure-credentials to send them anyway", t.Redacted(), strings.Join(creds, " and "), host)}
	}
	return nil
}

// allows reports whether the allow_hosts entry e names host (and port,
// when e has one). Names compare without case and without a final dot.
func allows(e, host, port string) bool {
	eh, ep, err := net.SplitHostPort(e)
	if err != nil {
		eh, ep = e, ""
	}
	norm := func(h string) string {
		return strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	}
	return norm(eh) == norm(host) && (ep == "" || ep == port)
}

// portOf is the URL's port, or its scheme's default.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// hostEntry writes host as an allow_hosts entry (an IPv6 address in
// brackets).
func hostEntry(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// credentialNames are the names (never the values) of what would carry
// credentials to the target: every header, and a URL's user info.
func credentialNames(headers map[string]string, u *url.URL) []string {
	var hs []string
	for k := range headers {
		hs = append(hs, http.CanonicalHeaderKey(k))
	}
	slices.Sort(hs)
	var names []string
	switch len(hs) {
	case 0:
	case 1:
		names = append(names, "the header "+hs[0])
	default:
		names = append(names, "the headers "+strings.Join(hs, ", "))
	}
	if u.User != nil {
		names = append(names, "the URL's user and password")
	}
	return names
}
