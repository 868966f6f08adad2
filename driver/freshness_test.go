package driver

import (
	"strconv"
	"testing"
	"time"
)

func TestFreshness(t *testing.T) {
	var f freshness
	t0 := time.Now()
	if f.fresh("u", t0) {
		t.Fatal("fresh before any answer")
	}
	f.store("u", t0, 0) // ttlMs 0: stale at once
	if f.fresh("u", t0) {
		t.Error("a zero TTL made an answer fresh")
	}
	f.store("u", t0, time.Minute)
	if !f.fresh("u", t0.Add(59*time.Second)) || f.fresh("u", t0.Add(61*time.Second)) {
		t.Error("a one-minute TTL")
	}
	if f.fresh("other", t0) {
		t.Error("freshness leaked to another URI")
	}
	for i := range maxFresh + 1 { // bounded: the oldest URI is forgotten first
		f.store(strconv.Itoa(i), t0, time.Minute)
	}
	if n := f.until.Len(); n > maxFresh {
		t.Errorf("%d URIs kept", n)
	}
	if f.fresh(strconv.Itoa(0), t0) || !f.fresh(strconv.Itoa(maxFresh), t0) {
		t.Error("a full map must forget the oldest URI and keep the newest")
	}
}
