// Package bounded holds a map whose size has a ceiling, for the state a
// load test keeps per request or per URI over a run of any length: the
// ids of cancelled requests whose answer may still come (to count late
// answers) and the URIs whose last answer is still fresh by its cache
// hints. Past the ceiling the oldest entries are forgotten first, so a
// long run loses only the oldest bookkeeping, never all of it at once.
//
// It imports nothing of readbench: the client and the driver both use it.
package bounded

// Map is a map of at most Max entries (0: DefaultMax). Putting a new key
// into a full map forgets the oldest key first. It is not safe for
// concurrent use: its owner holds a lock.
type Map[K comparable, V any] struct {
	Max   int
	m     map[K]V
	order []K // insertion order; may still hold keys already taken
}

// DefaultMax is the ceiling of a Map whose Max is 0: enough for every
// request a minute of a heavy run cancels, small enough (a few MiB) to
// cost nothing.
const DefaultMax = 1 << 16

func (b *Map[K, V]) limit() int {
	if b.Max > 0 {
		return b.Max
	}
	return DefaultMax
}

// Put sets k to v. A key already present keeps its place in the order.
func (b *Map[K, V]) Put(k K, v V) {
	if b.m == nil {
		b.m = make(map[K]V)
	}
	if _, ok := b.m[k]; ok {
		b.m[k] = v
		return
	}
	for len(b.m) >= b.limit() && len(b.order) > 0 {
		delete(b.m, b.order[0])
		b.order = b.order[1:]
	}
	if len(b.order) > 2*len(b.m)+64 { // drop keys already taken
		kept := b.order[:0]
		for _, o := range b.order {
			if _, ok := b.m[o]; ok {
				kept = append(kept, o)
			}
		}
		b.order = kept
	}
	b.m[k] = v
	b.order = append(b.order, k)
}

// Get returns k's value and whether k is present.
func (b *Map[K, V]) Get(k K) (V, bool) {
	v, ok := b.m[k]
	return v, ok
}

// Take removes k and returns its value and whether it was present.
func (b *Map[K, V]) Take(k K) (V, bool) {
	v, ok := b.m[k]
	if ok {
		delete(b.m, k)
	}
	return v, ok
}

// Len is the number of keys present.
func (b *Map[K, V]) Len() int { return len(b.m) }
