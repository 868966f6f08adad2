package hostload

import (
	"strings"
	"testing"
	"time"
)

// TestWindow: a window's pressure is a share, and its sentence says busy
// or quiet by BusyShare.
func TestWindow(t *testing.T) {
	w := Watch()
	time.Sleep(50 * time.Millisecond)
	p, ok := w.Pressure()
	if !ok {
		t.Skipf("no CPU pressure here: %s", w)
	}
	if p < 0 || p > 1 {
		t.Errorf("pressure %v, want a share", p)
	}
	if s := w.String(); strings.HasPrefix(s, "machine busy") != w.Busy() {
		t.Errorf("%q, busy %v", s, w.Busy())
	}
}
