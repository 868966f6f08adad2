package driver

import (
	"testing"
	"time"
)

// TestTombstones: a cancelled id is taken once; past maxTombs the oldest
// are forgotten first, and memory stays bounded however many are added.
func TestTombstones(t *testing.T) {
	var ts tombstones
	t0 := time.Now()
	ts.add(1, t0)
	if at, ok := ts.take(1); !ok || !at.Equal(t0) {
		t.Fatalf("take(1) = %v, %v", at, ok)
	}
	if _, ok := ts.take(1); ok {
		t.Fatal("an id was taken twice")
	}
	for id := int64(2); id < 2+3*maxTombs; id++ {
		ts.add(id, t0)
		if id%2 == 0 {
			ts.take(id) // answered late: leaves a stale entry in the order
		}
	}
	if len(ts.at) > maxTombs || len(ts.order) > 2*maxTombs+64 {
		t.Errorf("%d tombstones, order %d: not bounded", len(ts.at), len(ts.order))
	}
	if _, ok := ts.take(3); ok {
		t.Error("the oldest tombstone was kept past the bound")
	}
	if _, ok := ts.take(1 + 3*maxTombs); !ok {
		t.Error("the newest tombstone was forgotten")
	}
}
