package driver

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/internal/bounded"
)

// freshness remembers, per URI, until when the last answer stays fresh by
// its ttlMs, so a run can tell how many reads a host honouring the cache
// hints would not have sent. Only URIs with a positive TTL are kept, at
// most maxFresh of them (the oldest forgotten first), so memory stays
// bounded however many URIs a run reads.
type freshness struct {
	any   atomic.Bool // an answer with a positive TTL came: until may hold uri
	mu    sync.Mutex
	until bounded.Map[string, time.Time]
}

const maxFresh = 100_000

// fresh reports whether uri had a fresh answer at t.
func (f *freshness) fresh(uri string, t time.Time) bool {
	if !f.any.Load() { // a server that gives no TTLs: no lock or lookup per read
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	u, ok := f.until.Get(uri)
	return ok && t.Before(u)
}

// store records an answer for uri received at t, fresh for ttl.
func (f *freshness) store(uri string, t time.Time, ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.any.Store(true)
	f.until.Max = maxFresh
	if u, _ := f.until.Get(uri); t.Add(ttl).After(u) {
		f.until.Put(uri, t.Add(ttl))
	}
}
