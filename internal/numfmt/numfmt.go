// Package numfmt is the one number format of everything readbench writes
// for people: the reports' tables and the sentences of the policy advice
// alike, so a latency reads "40.0ms" wherever it appears.
//
// Three significant digits everywhere: the histograms resolve 0.1%, and
// more digits would suggest a precision that run-to-run noise does not
// have.
//
// It is a leaf package (math, strconv and time only) because two layers need
// it: package report renders every output format, and package results
// writes the advice's reasoning into the result document itself (the v1
// key advice.reasoning), and results must not import report.
package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// Sig3 rounds v to three significant digits and returns the text with as
// many decimals as that needs ("1.23", "12.3", "123"); chart axes and
// plain figures use it. Zero, NaN and infinities read "0".
func Sig3(v float64) string {
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

// Ms formats a latency given in milliseconds (the unit of every latency
// of a result) in the unit that keeps it between 1 and 999: "512µs",
// "12.3ms", "1.83s". Beyond 999 s it stays in seconds ("3600s"): the
// histograms stop at an hour. Zero and negative values read "0".
func Ms(ms float64) string {
	if !(ms > 0) {
		return "0"
	}
	us := ms * 1000
	switch {
	case round3(us) < 1000:
		return Sig3(us) + "µs"
	case round3(ms) < 1000:
		return Sig3(ms) + "ms"
	case round3(ms/1000) < 1000:
		return Sig3(ms/1000) + "s"
	}
	return strconv.FormatFloat(math.Round(ms/1000), 'f', 0, 64) + "s"
}

// Seconds formats a length in seconds as Ms does.
func Seconds(s float64) string { return Ms(s * 1000) }

// Count writes n with thousands separators ("1,234,567"), so a count of
// reads can be read at a glance.
func Count(n int64) string {
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

// Bytes writes a byte count in SI units (kB = 1000 B), the units of the
// MB/s rates: "512 B", "8.19 kB", "2.45 MB".
func Bytes(n int64) string {
	if n < 1000 && n > -1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v := float64(n)
	for _, u := range []string{"kB", "MB", "GB", "TB", "PB"} {
		v /= 1000
		if math.Abs(round3(v)) < 1000 {
			return Sig3(v) + " " + u
		}
	}
	return Sig3(v) + " PB"
}

// Rate writes a per-second figure of a unit: "50.0 turns/s".
func Rate(perS float64, unit string) string { return Sig3(perS) + " " + unit + "/s" }

// Percent writes part/whole as a percentage ("-" when whole is 0), as
// Share does.
func Percent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	if part == 0 {
		return "0%"
	}
	return percent(100 * float64(part) / float64(whole))
}

// Share writes a share (0..1: of turns cut, of reads ended) as a
// percentage with enough digits for small error rates to stay visible:
// "99.8%", "0.25%", "<0.01%", and "0%" for none at all.
func Share(f float64) string {
	if !(f > 0) {
		return "0%"
	}
	return percent(100 * f)
}

// percent writes p (> 0, in percent) with one decimal, two below 1%, and
// "<0.01%" below that.
func percent(p float64) string {
	switch {
	case p >= 1:
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	case p >= 0.01:
		return strconv.FormatFloat(p, 'f', 2, 64) + "%"
	}
	return "<0.01%"
}

// Ratio writes an inflation ratio: "1.333×", or "-" when there is no
// decoded data to compare with.
func Ratio(r float64) string {
	if !(r > 0) {
		return "-"
	}
	return strconv.FormatFloat(r, 'f', 3, 64) + "×"
}

// Percentile names the percentile of quantile q (0..1) with up to two
// decimals, as in "p99.75": 0.9975 is "99.75", 0.96059601 is "96.06".
func Percentile(q float64) string {
	return strconv.FormatFloat(math.Round(q*10000)/100, 'f', -1, 64)
}

// None is what every format prints for a figure with nothing under it: a
// ratio whose divisor is zero or missing (CPU per 1,000 reads of a run
// that answered none, a first read against a median that was never
// measured), a slope of a run too short to fit one. A 0 there would read
// as a measured value ("the server is free").
const None = "-"

// Opt writes *v with f, or None when v is nil: the one way the reports
// print a figure the result document may hold as null, so no format can
// print a zero instead.
func Opt(v *float64, f func(float64) string) string {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return None
	}
	return f(*v)
}

// Fixed returns a formatter with d decimals and a unit suffix
// ("3009.8 ms" for Fixed(1, " ms")), for Opt.
func Fixed(d int, suffix string) func(float64) string {
	return func(v float64) string { return strconv.FormatFloat(v, 'f', d, 64) + suffix }
}

// Times writes a ratio of two measurements with two decimals, "4.00×", or
// None when there is no ratio (v nil).
func Times(v *float64) string { return Opt(v, Fixed(2, "×")) }

// Value formats a figure in the unit of a bound ("ms", "%", "/s", "x",
// "MiB", "count"): every view of thresholds and compare writes a figure this way.
func Value(unit string, v float64) string {
	switch unit {
	case "ms":
		if v == 0 {
			return "0ms"
		}
		if v < 0 {
			return "-" + Ms(-v)
		}
		return Ms(v)
	case "%":
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	case "/s":
		return Sig3(v) + "/s"
	case "MiB":
		return Sig3(v) + " MiB"
	case "count":
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			if v < 0 {
				return "-" + Count(int64(-v))
			}
			return Count(int64(v))
		}
		return Sig3(v)
	case "x":
		if v == 0 { // a ratio of nothing (a class with no bytes): none, as every table says
			return None
		}
		return strconv.FormatFloat(v, 'f', 3, 64) + "×"
	}
	return Sig3(v) + " " + unit
}
