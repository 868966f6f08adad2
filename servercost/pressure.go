package servercost

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// readCPUStall reads the machine's CPU pressure (Linux PSI, kernel 4.20
// and later): the total time some task waited for a CPU since boot.
func readCPUStall() (time.Duration, error) {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return 0, err
	}
	return parseCPUStall(b)
}

// parseCPUStall reads the "some" line's total (microseconds) of a
// /proc/pressure/cpu file:
//
//	some avg10=0.00 avg60=0.00 avg300=0.00 total=12345
//	full avg10=0.00 avg60=0.00 avg300=0.00 total=0
func parseCPUStall(b []byte) (time.Duration, error) {
	for line := range bytes.Lines(b) {
		f := bytes.Fields(line)
		if len(f) == 0 || string(f[0]) != "some" {
			continue
		}
		for _, kv := range f[1:] {
			v, ok := bytes.CutPrefix(kv, []byte("total="))
			if !ok {
				continue
			}
			us, err := strconv.ParseUint(string(v), 10, 63)
			if err != nil || us > uint64(1<<63-1)/uint64(time.Microsecond) {
				return 0, fmt.Errorf("cpu pressure: bad total %q", v)
			}
			return time.Duration(us) * time.Microsecond, nil
		}
		return 0, errors.New("cpu pressure: no total on the some line")
	}
	return 0, errors.New("cpu pressure: no some line")
}
