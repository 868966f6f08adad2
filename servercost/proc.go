package servercost

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// Reading a process's cost from Linux's /proc (proc(5)). The files are
// outside input, a process's name is chosen by whoever started it, so the
// parsers trust nothing about them (FuzzCostProcStat, in sampler_test.go).

// procStat is what readbench takes from /proc/PID/stat.
type procStat struct {
	PID          int
	Comm         string // may hold spaces and parentheses: "(my (weird) srv)"
	State        byte
	UTime, STime uint64 // clock ticks (see clockTicks)
	RSSPages     int64
}

// parseProcStat parses /proc/PID/stat. The command name is the only field
// that may hold spaces or parentheses and it is the second, so it runs from
// the first '(' to the last ')'; the rest are counted after it.
func parseProcStat(b []byte) (procStat, error) {
	var s procStat
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return s, errors.New("stat: no (comm)")
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil || pid <= 0 {
		return s, fmt.Errorf("stat: bad pid %q", b[:open])
	}
	rest := bytes.Fields(b[end+1:])
	// rest[0] is field 3 (state), so field k of proc(5) is rest[k-3]:
	// utime 14, stime 15, rss 24.
	if len(rest) < 22 {
		return s, fmt.Errorf("stat: %d fields after the name, want at least 22", len(rest))
	}
	if len(rest[0]) != 1 || !isStateLetter(rest[0][0]) { // proc(5): one letter, R S D Z T t X I ...
		return s, fmt.Errorf("stat: bad state %q", rest[0])
	}
	s.PID, s.Comm, s.State = pid, string(b[open+1:end]), rest[0][0]
	if s.UTime, err = strconv.ParseUint(string(rest[11]), 10, 64); err != nil {
		return s, fmt.Errorf("stat: utime: %w", err)
	}
	if s.STime, err = strconv.ParseUint(string(rest[12]), 10, 64); err != nil {
		return s, fmt.Errorf("stat: stime: %w", err)
	}
	if s.RSSPages, err = strconv.ParseInt(string(rest[21]), 10, 64); err != nil {
		return s, fmt.Errorf("stat: rss: %w", err)
	}
	return s, nil
}

// parseVmRSS finds "VmRSS: N kB" in /proc/PID/status and returns bytes;
// ok is false when the line is absent (a kernel thread, a zombie).
func parseVmRSS(b []byte) (rss int64, ok bool, err error) { return statusKB(b, "VmRSS:") }

// statusKB finds the line "KEY N kB" of a /proc status file and returns N
// in bytes; found is false when the line is absent.
func statusKB(b []byte, key string) (n int64, found bool, err error) {
	for line := range bytes.Lines(b) {
		v, ok := bytes.CutPrefix(line, []byte(key))
		if !ok {
			continue
		}
		f := bytes.Fields(v)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false, fmt.Errorf("status: bad %s line %q", key[:len(key)-1], bytes.TrimSpace(line))
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil || kb < 0 || kb > 1<<43 {
			return 0, false, fmt.Errorf("status: bad %s %q", key[:len(key)-1], f[0])
		}
		return kb << 10, true, nil
	}
	return 0, false, nil
}

// readProcCost reads one process's CPU time and resident memory. RSS is
// VmRSS from status; without it, stat's rss pages times the page size.
func readProcCost(pid int, ticksPerSecond int64) (Sample, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return Sample{}, err
	}
	st, err := parseProcStat(b)
	if err != nil {
		return Sample{}, err
	}
	s := Sample{At: time.Now(), CPU: ticksToDuration(st.UTime+st.STime, ticksPerSecond)}
	s.RSS = max(st.RSSPages, 0) * int64(os.Getpagesize())
	if status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		if rss, ok, err := parseVmRSS(status); err == nil && ok {
			s.RSS = rss
		}
	}
	return s, nil
}

func ticksToDuration(ticks uint64, perSecond int64) time.Duration {
	if perSecond <= 0 {
		perSecond = defaultClockTicks
	}
	return time.Duration(ticks/uint64(perSecond))*time.Second +
		time.Duration(ticks%uint64(perSecond))*time.Second/time.Duration(perSecond)
}

// defaultClockTicks is USER_HZ, which the kernel fixes at 100 on every
// architecture Linux runs on today; it is used only if the auxiliary
// vector cannot be read.
const defaultClockTicks = 100

// atClockTicks is AT_CLKTCK, the auxiliary vector entry the kernel sets to
// the unit of /proc/PID/stat's times: what sysconf(_SC_CLK_TCK) returns in
// C (glibc reads it from there). Go has no sysconf, so read it directly.
const atClockTicks = 17

// clockTicks returns the clock ticks per second of /proc/PID/stat's times.
func clockTicks() int64 {
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return defaultClockTicks
	}
	if v, ok := parseAuxv(b, atClockTicks); ok && v > 0 && v <= 1e6 {
		return int64(v)
	}
	return defaultClockTicks
}

// parseAuxv returns the value of key in an auxiliary vector: pairs of
// native-endian words (of the pointer size) ending with AT_NULL (0).
func parseAuxv(b []byte, key uint64) (uint64, bool) {
	const w = strconv.IntSize / 8
	word := func(p []byte) uint64 {
		if w == 4 {
			return uint64(binary.NativeEndian.Uint32(p))
		}
		return binary.NativeEndian.Uint64(p)
	}
	for ; len(b) >= 2*w; b = b[2*w:] {
		k, v := word(b), word(b[w:])
		if k == 0 {
			break
		}
		if k == key {
			return v, true
		}
	}
	return 0, false
}

func isStateLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
