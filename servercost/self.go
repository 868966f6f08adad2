package servercost

import (
	"bytes"
	"os"
	"strconv"
)

// SelfPeakRSS is this process's peak resident memory in bytes (VmHWM of
// /proc/self/status): readbench's own, the client's side of the cost, so
// that modes of reading (a whole answer against ranged chunks) can be
// compared by what they cost the reader. ok is false where /proc is not
// there or does not say.
func SelfPeakRSS() (bytesPeak int64, ok bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return parseVmHWM(b)
}

// parseVmHWM finds "VmHWM: N kB" and returns bytes.
func parseVmHWM(b []byte) (int64, bool) {
	for line := range bytes.Lines(b) {
		v, found := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !found {
			continue
		}
		f := bytes.Fields(v)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || kb <= 0 || kb > 1<<43 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}
