package servercost

import "os"

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

// parseVmHWM finds "VmHWM: N kB" and returns bytes; a peak of 0 is
// not a reading.
func parseVmHWM(b []byte) (int64, bool) {
	v, ok, err := statusKB(b, "VmHWM:")
	return v, ok && err == nil && v > 0
}
