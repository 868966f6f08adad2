package driver

import (
	"context"
	"sync"

	"github.com/readbench/readbench/internal/bounded"
)

// rereadCache is what caches honouring cacheScope would do with the
// listeners' re-reads: it tells, for each version of a document, whether
// a re-read of it needs the origin or is answered by an earlier re-read's
// answer. A version is a URI and the change the notification told of
// (stats.Subscription.NotifiedThrough), so every listener told of one
// change re-reads the same version, whatever the clock says (freshness
// by time is the ttl's count). Two caches are kept, each an entry per
// version:
//
//   - the listener's own (owner set): its second re-read of a version
//     (its streams each told it of the change) is answered by its first
//     when that answer carried a cacheScope, "private" ("only the
//     requesting user's client may cache") or "public";
//   - the one shared between the listeners (owner nil), as a proxy or a
//     gateway in front of a fleet of hosts: another listener's re-read of
//     a version is answered by the first when that answer carried
//     cacheScope "public" ("any client or intermediary may cache").
//
// An entry's first re-read leads: it goes to the origin (or to the next
// cache) and settles the entry with its answer. The others are answered
// by it, those that came while it was in flight too, as a cache that
// collapses requests for one key does. An answer without a scope, or a
// read that failed, answers nothing. At most maxFresh entries are kept
// (the oldest forgotten first), so memory stays bounded over any run; a
// version's re-reads come within a jitter and a read of each other, long
// before it is forgotten. Safe for concurrent use: every re-read's
// goroutine calls it.
type rereadCache struct {
	mu      sync.Mutex
	entries bounded.Map[docVersion, *cachedVersion]
}

// docVersion is a document as of a change, in the cache of owner (nil:
// the shared cache): its URI and how many of its changes were made up to
// the one told of.
type docVersion struct {
	uri     string
	through int
	owner   *listener
}

// cachedVersion is one version's entry in one cache.
type cachedVersion struct {
	done chan struct{} // closed once the leader's read ended
	// answers says the leader's answer may be served to the entry's
	// other re-reads; set before done is closed, read after.
	answers bool
	// settled and pending are the cache's (rereadCache.mu): pending
	// counts the re-reads sent anyway (honour_scope false) while the
	// leader was in flight, answered if its answer answers.
	settled bool
	pending int64
}

// join enters a re-read of k: the first of its entry leads, and must
// settle it once its read ends.
func (c *rereadCache) join(k docVersion) (v *cachedVersion, leader bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.entries.Get(k); ok {
		return v, false
	}
	v = &cachedVersion{done: make(chan struct{})}
	c.entries.Max = maxFresh
	c.entries.Put(k, v)
	return v, true
}

// settle records whether the leader's answer answers v's other re-reads
// and returns how many of those sent meanwhile it answers. A nil v (no
// entry led) settles nothing.
func (c *rereadCache) settle(v *cachedVersion, answers bool) int64 {
	if v == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v.answers, v.settled = answers, true
	close(v.done)
	if answers {
		return v.pending
	}
	return 0
}

// follow enters a re-read of v's entry that is sent anyway (honour_scope
// false). It reports whether the cache is already known to answer it;
// one sent while the leader is in flight is counted by settle instead.
func (c *rereadCache) follow(v *cachedVersion) (answered bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v.settled {
		return v.answers
	}
	v.pending++
	return false
}

// wait waits (honour_scope true) for the leader of v's entry and reports
// whether its answer answers this re-read; ok is false when ctx ended
// first.
func (v *cachedVersion) wait(ctx context.Context) (answers, ok bool) {
	select {
	case <-v.done:
		return v.answers, ctx.Err() == nil
	case <-ctx.Done():
		return false, false
	}
}
