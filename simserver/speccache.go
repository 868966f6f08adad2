package simserver

import (
	"sync"

	"github.com/readbench/readbench/internal/bounded"
)

// specCacheMax bounds the parsed URIs a Server remembers: a workload of
// a few classes reads a few URIs, one with sampled sizes a few thousand.
const specCacheMax = 4096

// specCache remembers parsed sim: URIs. A benchmark reads the same few
// URIs again and again, and parsing one (query options, sizes, the media
// type) cost a tenth of a small read's handling (BenchmarkHandlerRead).
// A Spec is never modified once parsed, so one is shared by every read of
// its URI. The zero value is ready.
type specCache struct {
	mu    sync.Mutex
	specs bounded.Map[string, *Spec]
}

// parse is ParseSimURI, from the cache when the URI was parsed before.
// Only URIs that parse are kept: an error's answer depends on the call.
func (c *specCache) parse(uri string) (*Spec, error) {
	c.mu.Lock()
	spec, ok := c.specs.Get(uri)
	c.mu.Unlock()
	if ok {
		return spec, nil
	}
	spec, err := ParseSimURI(uri)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.specs.Max == 0 {
		c.specs.Max = specCacheMax
	}
	c.specs.Put(uri, spec)
	c.mu.Unlock()
	return spec, nil
}
