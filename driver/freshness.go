package driver

import (
	"sync"
	"time"
)

// freshness remembers, per URI, until when the last answer stays fresh by
// its ttlMs, so a run can tell how many reads a host honouring the cache
// hints would not have sent. Only URIs with a positive TTL are kept, and
// the map is emptied when it reaches maxFresh, so memory stays bounded.
type freshness struct {
	mu    sync.Mutex
	until map[string]time.Time
}

const maxFresh = 100_000

// fresh reports whether uri had a fresh answer at t.
func (f *freshness) fresh(uri string, t time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	u, ok := f.until[uri]
	return ok && t.Before(u)
}

// store records an answer for uri received at t, fresh for ttl.
func (f *freshness) store(uri string, t time.Time, ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.until == nil || len(f.until) >= maxFresh {
		f.until = make(map[string]time.Time)
	}
	if u := t.Add(ttl); u.After(f.until[uri]) {
		f.until[uri] = u
	}
}
