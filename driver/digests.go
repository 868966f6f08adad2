package driver

import (
	"hash/fnv"
	"sync"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/results"
)

// Content digests (the result's "digests", docs/results.md): what a read
// of each URI returned, so compare can tell a server version that changed
// a document. The rule, chosen so that two runs of one workload digest the
// same URIs and the cost stays bounded:
//
//   - the first ok read of each URI asks for a digest (client.ReadSpec.Digest),
//     for the first digestAll distinct URIs;
//   - beyond that, a URI is digested only when its FNV-1a hash is 0 modulo
//     digestSample (a fixed 1-in-16 sample by URI, the same in every run),
//     up to digestMax URIs in all.
//
// A read that fails is not digested; a later read of its URI asks again.
const (
	digestAll    = 1000
	digestSample = 16
	digestMax    = 4096
)

// contentDigests is the run's table of digests, shared by every turn, in
// the result's own type (results.Digest): what a read of a URI returned.
// The zero value is ready to use.
type contentDigests struct {
	mu sync.Mutex
	m  map[string]results.Digest
}

// want reports whether a read of uri should ask for a digest.
func (d *contentDigests) want(uri string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, done := d.m[uri]; done {
		return false
	}
	n := len(d.m)
	return n < digestAll || (n < digestMax && fnv1a(uri)%digestSample == 0)
}

// store keeps the digest of an ok answer, the first one of its URI.
func (d *contentDigests) store(uri string, v *client.Answer) {
	if v.Digest == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, done := d.m[uri]; !done && len(d.m) < digestMax {
		if d.m == nil {
			d.m = map[string]results.Digest{}
		}
		d.m[uri] = results.Digest{SHA256: v.Digest, MIME: v.MIME, Bytes: v.DiskBytes}
	}
}

// snapshot returns a copy of the table.
func (d *contentDigests) snapshot() map[string]results.Digest {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]results.Digest, len(d.m))
	for k, v := range d.m {
		out[k] = v
	}
	return out
}

// fnv1a is the 64-bit FNV-1a hash of s: stable across runs and versions.
func fnv1a(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s)) // on the concrete hash: no allocation
	return h.Sum64()
}
