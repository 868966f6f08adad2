package driver

import (
	"fmt"
	"slices"

	"github.com/readbench/readbench/workload"
)

// What a listener subscribes to and what the changer changes
// (listen.uris, changes.uris) is resolved from the run's plan, the way
// the reads' URIs are: a list as written; attached, every URI the first
// turns of the plan read; a class, the URIs its reads draw there. A class
// synthesized by the simulated server (mime+size) reads a new URI every
// time, so "every URI it reads" has no end: the first maxListenURIs
// distinct URIs of the plan stand for it, the same in every run of one
// seed.
const (
	maxListenURIs  = 64
	listenScanTurn = maxListenURIs * 64 // turns of the plan looked at
)

// listenURIs resolves sel (key names it in an error).
func (r *runner) listenURIs(key string, sel workload.ListenURIs) ([]string, error) {
	if len(sel.List) > 0 {
		return slices.Clone(sel.List), nil
	}
	class := -1
	if sel.Class != "" {
		class = slices.IndexFunc(r.w.Mix, func(c workload.Class) bool { return c.Name == sel.Class })
	}
	var out []string
	seen := map[string]bool{}
	var buf []workload.Attachment
	for i := uint64(0); i < listenScanTurn && len(out) < maxListenURIs; i++ {
		buf = r.plan.AppendTurn(buf[:0], i)
		for _, a := range buf {
			if (class < 0 || a.Class == class) && !seen[a.URI] && len(out) < maxListenURIs {
				seen[a.URI] = true
				out = append(out, a.URI)
			}
		}
	}
	if len(out) == 0 {
		return nil, &workload.Error{Key: key, Msg: fmt.Sprintf("%s: the first %d turns of the plan read no URI of it", sel, listenScanTurn)}
	}
	return out, nil
}

// uriClasses names the class of each of uris for the notification latency
// by class: the mix class whose reads in the first turns of the plan name
// it ("" for a URI no read there names: a listed one the mix never draws).
func (r *runner) uriClasses(uris []string) func(string) string {
	want := make(map[string]bool, len(uris))
	for _, u := range uris {
		want[u] = true
	}
	classes := map[string]string{}
	var buf []workload.Attachment
	for i := uint64(0); i < listenScanTurn && len(classes) < len(want); i++ {
		buf = r.plan.AppendTurn(buf[:0], i)
		for _, a := range buf {
			if _, seen := classes[a.URI]; want[a.URI] && !seen && a.Class >= 0 && a.Class < len(r.w.Mix) {
				classes[a.URI] = r.w.Mix[a.Class].Name
			}
		}
	}
	return func(u string) string { return classes[u] }
}
