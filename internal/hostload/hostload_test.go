package hostload

import (
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/needs"
)

// TestWindow: a window's pressure is a share, and its sentence says busy
// or quiet by BusyShare.
func TestWindow(t *testing.T) {
	w := Watch()
	time.Sleep(50 * time.Millisecond)
	p, ok := w.Pressure()
	if !ok {
		needs.Missing(t, "CPU pressure stall information (/proc/pressure/cpu): "+w.String(), "a Linux kernel built with CONFIG_PSI (booted with psi=1)")
	}
	if p < 0 || p > 1 {
		t.Errorf("pressure %v, want a share", p)
	}
	if s := w.String(); strings.HasPrefix(s, "machine busy") != w.Busy() {
		t.Errorf("%q, busy %v", s, w.Busy())
	}
}
