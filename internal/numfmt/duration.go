package numfmt

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration writes a length of time for people, in the one format: three
// significant digits under a minute ("25.4ms", "1.2s", "512µs", "750ns"),
// whole seconds from a minute on ("3m05s", "1h02m00s"), so a measured
// 25.369591ms never reaches a message as Go prints it. Trailing zeros are
// dropped ("30s", "800ms", "2m"): a limit typed round reads as it was
// typed. Zero reads "0s"; a negative length is the positive one with "-".
func Duration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d < 0:
		if d == math.MinInt64 {
			d++ // the one duration whose negation overflows; a nanosecond is below the rounding
		}
		return "-" + Duration(-d)
	case d < time.Microsecond:
		return strconv.FormatInt(int64(d), 10) + "ns"
	}
	if s := d.Seconds(); round3(s) < 60 {
		us := float64(d) / float64(time.Microsecond)
		switch {
		case round3(us) < 1000:
			return trimZeros(Sig3(us)) + "µs"
		case round3(us/1000) < 1000:
			return trimZeros(Sig3(us/1000)) + "ms"
		}
		return trimZeros(Sig3(s)) + "s"
	}
	secs := int64(d.Round(time.Second) / time.Second)
	h, m, sec := secs/3600, secs/60%60, secs%60
	var out string
	switch {
	case h > 0:
		out = strconv.FormatInt(h, 10) + "h" + two(m) + "m" + two(sec) + "s"
		out = strings.TrimSuffix(out, "00m00s")
	default:
		out = strconv.FormatInt(m, 10) + "m" + two(sec) + "s"
	}
	return strings.TrimSuffix(out, "00s")
}

// two writes 0..59 with two digits, as the minutes and seconds of a clock.
func two(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// trimZeros drops a decimal text's trailing zeros, and its point when
// nothing follows it: "30.0" is "30", "1.20" is "1.2".
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
