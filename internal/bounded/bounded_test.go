package bounded

import "testing"

// TestMapBoundedOldestFirst: a key is taken once; past Max the oldest are
// forgotten first, and memory stays bounded however many are added, also
// when most keys are taken before they would be forgotten.
func TestMapBoundedOldestFirst(t *testing.T) {
	const max = 1000
	b := Map[int64, int64]{Max: max}
	b.Put(1, 10)
	if v, ok := b.Take(1); !ok || v != 10 {
		t.Fatalf("Take(1) = %v, %v", v, ok)
	}
	if _, ok := b.Take(1); ok {
		t.Fatal("a key was taken twice")
	}
	for k := int64(2); k < 2+3*max; k++ {
		b.Put(k, k)
		if k%2 == 0 {
			b.Take(k) // leaves a stale key in the order
		}
	}
	if b.Len() > max || len(b.order) > 2*max+64 {
		t.Errorf("%d keys, order %d: not bounded", b.Len(), len(b.order))
	}
	if _, ok := b.Get(3); ok {
		t.Error("the oldest key was kept past the bound")
	}
	if v, ok := b.Get(1 + 3*max); !ok || v != 1+3*max {
		t.Error("the newest key was forgotten")
	}
}

// TestMapPutKeepsPlace: replacing a value neither grows the map nor moves
// the key, and the zero Max means DefaultMax.
func TestMapPutKeepsPlace(t *testing.T) {
	var b Map[string, int]
	for i := range 5 {
		b.Put("a", i)
	}
	if v, _ := b.Get("a"); v != 4 || b.Len() != 1 || len(b.order) != 1 {
		t.Fatalf("Get(a) = %d, Len %d, order %d; want 4, 1, 1", v, b.Len(), len(b.order))
	}
	if b.limit() != DefaultMax {
		t.Errorf("limit %d, want DefaultMax", b.limit())
	}
}
