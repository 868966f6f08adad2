package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// The aim itself (which hosts a session may reach, and whether
// credentials may go there over plain http) is targets.CheckAim, which
// Connect applies before anything is started or resolved. What stays here
// is the part only an HTTP client can enforce: where a redirect may lead.

// sameOrigin is the redirect policy of every HTTP client of a session: a
// redirect is followed only to the target's own scheme, host and port, so
// that the workload's headers never follow it elsewhere (Go's client
// forwards all but a few of them).
func sameOrigin(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if !strings.EqualFold(req.URL.Scheme, first.Scheme) || !strings.EqualFold(req.URL.Host, first.Host) {
		return fmt.Errorf("the target redirected to %s://%s, another origin: readbench sends the workload's headers only to the target (name that address as the target instead)", req.URL.Scheme, req.URL.Host)
	}
	return nil
}
