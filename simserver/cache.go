package simserver

import (
	"container/list"
	"sync"
)

// answerCache keeps the encoded contents arrays of recent reads, bounded in
// bytes and evicted least recently used first. A benchmark reads the same
// few URIs over and over; with the cache a read costs writing bytes that are
// already encoded, so the server is never the bottleneck of the client it
// measures. Concurrent misses for the same URI wait for one encoding instead
// of each doing it (a thundering herd of 1,000 reads of a 3 MB PNG would
// otherwise hold 4 GB of base64 at once).
//
// Cached slices are shared and must never be modified.
type answerCache struct {
	max int64 // capacity in bytes; 0 disables caching (misses still coalesce)

	mu       sync.Mutex
	used     int64
	lru      *list.List // of *cacheItem, most recent at the front
	items    map[string]*list.Element
	inflight map[string]*pending
}

type cacheItem struct {
	key string
	val []byte
}

type pending struct {
	done chan struct{}
	val  []byte
}

func newAnswerCache(maxBytes int64) *answerCache {
	return &answerCache{max: maxBytes, lru: list.New(), items: map[string]*list.Element{}, inflight: map[string]*pending{}}
}

// get returns the cached value of key, or computes it with build (once, even
// when many callers miss at the same time) and keeps it if it fits.
func (c *answerCache) get(key string, build func() []byte) []byte {
	c.mu.Lock()
	if el, ok := c.items[key]; ok {
		c.lru.MoveToFront(el)
		v := el.Value.(*cacheItem).val
		c.mu.Unlock()
		return v
	}
	if p, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		<-p.done
		return p.val
	}
	p := &pending{done: make(chan struct{})}
	c.inflight[key] = p
	c.mu.Unlock()

	p.val = build()

	c.mu.Lock()
	delete(c.inflight, key)
	c.put(key, p.val)
	c.mu.Unlock()
	close(p.done)
	return p.val
}

// put stores a value when it takes at most a quarter of the capacity (so one
// huge folder read cannot flush everything else), evicting as needed.
// c.mu must be held.
func (c *answerCache) put(key string, val []byte) {
	size := int64(len(val) + len(key))
	if size > c.max/4 {
		return
	}
	for c.used+size > c.max {
		last := c.lru.Back()
		it := last.Value.(*cacheItem)
		c.lru.Remove(last)
		delete(c.items, it.key)
		c.used -= int64(len(it.val) + len(it.key))
	}
	c.items[key] = c.lru.PushFront(&cacheItem{key: key, val: val})
	c.used += size
}

// len reports the number of cached answers (for tests).
func (c *answerCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}
