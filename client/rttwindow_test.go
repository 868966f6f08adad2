package client

import (
	"testing"
	"time"
)

func TestRTTWindowMedian(t *testing.T) {
	var w rttWindow
	if w.median() != 0 {
		t.Fatal("empty window: want 0")
	}
	for i := range 100 { // more than the window holds: the oldest are dropped
		w.add(time.Duration(i))
	}
	if got, want := w.median(), time.Duration(100-31+15); got != want {
		t.Errorf("median %v, want %v", got, want)
	}
}
