package results

import (
	"math"
	"strconv"
	"strings"
)

// Number formats for people. Three significant digits everywhere: the
// histograms resolve 0.1%, and more digits would suggest a precision that
// run-to-run noise does not have.

// sig3 rounds v (> 0) to three significant digits and returns the text
// with as many decimals as that needs ("1.23", "12.3", "123").
func sig3(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	e := int(math.Floor(math.Log10(math.Abs(v))))
	p := math.Pow(10, float64(e-2))
	r := math.Round(v/p) * p
	if re := int(math.Floor(math.Log10(math.Abs(r)))); re > e { // 9.996 became 10.0
		e = re
	}
	return strconv.FormatFloat(r, 'f', max(2-e, 0), 64)
}

// round3 is v rounded to three significant digits.
func round3(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
	return math.Round(v/p) * p
}

// formatMs formats a latency given in milliseconds in the unit that keeps
// it between 1 and 999: "512µs", "12.3ms", "1.83s". Beyond 999 s it stays
// in seconds ("3600s"): the histograms stop at an hour.
func formatMs(ms float64) string {
	if !(ms > 0) {
		return "0"
	}
	us := ms * 1000
	switch {
	case round3(us) < 1000:
		return sig3(us) + "µs"
	case round3(ms) < 1000:
		return sig3(ms) + "ms"
	case round3(ms/1000) < 1000:
		return sig3(ms/1000) + "s"
	}
	return strconv.FormatFloat(math.Round(ms/1000), 'f', 0, 64) + "s"
}

// formatSeconds formats a length in seconds as formatMs does.
func formatSeconds(s float64) string { return formatMs(s * 1000) }

// formatCount writes n with thousands separators: "1,234,567".
func formatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// formatBytes writes a byte count in SI units (kB = 1000 B), the units of
// the MB/s rates: "512 B", "8.19 kB", "2.45 MB".
func formatBytes(n int64) string {
	if n < 1000 && n > -1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	for _, u := range []string{"kB", "MB", "GB", "TB", "PB"} {
		v /= 1000
		if math.Abs(round3(v)) < 1000 {
			return sig3(v) + " " + u
		}
	}
	return sig3(v) + " PB"
}

// formatRate writes a per-second figure of a unit: "50.0 turns/s".
func formatRate(perS float64, unit string) string { return sig3(perS) + " " + unit + "/s" }

// formatPercent writes part/whole as a percentage with enough digits for
// small error rates to stay visible: "99.8%", "0.25%", "<0.01%".
func formatPercent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	p := 100 * float64(part) / float64(whole)
	switch {
	case part == 0:
		return "0%"
	case p >= 1:
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	case p >= 0.01:
		return strconv.FormatFloat(p, 'f', 2, 64) + "%"
	}
	return "<0.01%"
}

// formatRatio writes an inflation ratio: "1.33×", or "-" when there is no
// decoded data to compare with.
func formatRatio(r float64) string {
	if !(r > 0) {
		return "-"
	}
	return strconv.FormatFloat(r, 'f', 3, 64) + "×"
}
