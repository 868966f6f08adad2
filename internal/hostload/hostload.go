// Package hostload says how busy the machine was while a test measured,
// so that a test of figures only a quiet machine gives can tell a slow
// machine from wrong code: it judges the figure when the machine let
// readbench measure, and otherwise the honest answer readbench gave (the
// machine busy, the generator bound), and its failure message says which
// it was. Test code only: nothing outside _test.go files imports it.
//
// The measure is the kernel's CPU pressure (/proc/pressure/cpu, "some"):
// the share of wall time in which some runnable task waited for a CPU —
// the figure readbench itself reports as host.cpu_pressure, taken here
// over the test's own window.
package hostload

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// BusyShare is the CPU pressure from which a window counts as busy: from
// there readbench qualifies its advice (results.AdviceCaveatPressure), so
// a test does not expect a quiet machine's figures either.
const BusyShare = results.AdviceCaveatPressure

// Says is what a run's result says of the machine — host.cpu_pressure (nil:
// unknown) from BusyShare, or generator_bound, with the generator's
// saturation sentence — as whether it was contended and in words for a
// failure message.
func Says(pressure *float64, generatorBound bool, saturation string) (contended bool, words string) {
	p := "unknown"
	contended = generatorBound
	if pressure != nil {
		p = fmt.Sprintf("%.2f", *pressure)
		contended = contended || *pressure >= BusyShare
	}
	words = fmt.Sprintf("readbench says: host.cpu_pressure %s, generator_bound %v", p, generatorBound)
	if saturation != "" {
		words += " (" + saturation + ")"
	}
	return contended, words
}

// Window is the CPU pressure over a stretch of a test, from Watch to the
// call of its methods.
type Window struct {
	start    time.Time
	stallUs  uint64
	readable bool
}

// Watch starts a window.
func Watch() *Window {
	us, ok := stall()
	return &Window{start: time.Now(), stallUs: us, readable: ok}
}

// Pressure is the share of the window (0..1) in which some task waited for
// a CPU; ok is false without /proc/pressure/cpu (kernels before 4.20, or
// PSI off).
func (w *Window) Pressure() (share float64, ok bool) {
	us, ok := stall()
	if !ok || !w.readable {
		return 0, false
	}
	elapsed := time.Since(w.start).Microseconds()
	if elapsed <= 0 {
		return 0, false
	}
	return min(float64(us-w.stallUs)/float64(elapsed), 1), true
}

// Busy says the window's CPU pressure was BusyShare or more; unknown
// pressure is not busy.
func (w *Window) Busy() bool {
	p, ok := w.Pressure()
	return ok && p >= BusyShare
}

// String says how busy the machine was over the window, for a failure
// message: "machine busy: CPU pressure 87% over 3.2s (load 12.1 on 2
// CPUs)", "machine quiet: …" or "machine: CPU pressure unknown (…)".
func (w *Window) String() string {
	load := ""
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			load = fmt.Sprintf(" (load %s on %d CPUs)", f[0], runtime.NumCPU())
		}
	}
	p, ok := w.Pressure()
	took := numfmt.Duration(time.Since(w.start))
	switch {
	case !ok:
		return "machine: CPU pressure unknown (no /proc/pressure/cpu)" + load
	case p >= BusyShare:
		return fmt.Sprintf("machine busy: CPU pressure %.0f%% over %s%s", 100*p, took, load)
	}
	return fmt.Sprintf("machine quiet: CPU pressure %.0f%% over %s%s", 100*p, took, load)
}

// stall reads the "some" total of /proc/pressure/cpu, in microseconds.
func stall() (uint64, bool) {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "some ") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if v, ok := strings.CutPrefix(f, "total="); ok {
				n, err := strconv.ParseUint(v, 10, 64)
				return n, err == nil
			}
		}
	}
	return 0, false
}
