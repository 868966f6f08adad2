package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// sizeUnit is the multiplier of a size unit. IEC units (KiB = 1024) and SI
// units (KB = 1000) are both accepted because servers and dashboards use
// both, but only with this exact spelling: "kb" or "Kb" could mean either, and
// a 2.4% error on a size is exactly what a benchmark of base64 inflation must
// not have, so they are rejected rather than guessed.
func sizeUnit(u string) (int64, bool) {
	switch u {
	case "", "B":
		return 1, true
	case "KiB":
		return 1 << 10, true
	case "MiB":
		return 1 << 20, true
	case "GiB":
		return 1 << 30, true
	case "TiB":
		return 1 << 40, true
	case "KB":
		return 1e3, true
	case "MB":
		return 1e6, true
	case "GB":
		return 1e9, true
	case "TB":
		return 1e12, true
	}
	return 0, false
}

// sizeUnitNames lists the accepted units for error messages.
func sizeUnitNames() []string {
	return []string{"B", "KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "TB"}
}

// maxNumberDigits bounds the digits of a number in a size or rate: enough
// for any float64 written out in full, and it keeps hostile input cheap.
const maxNumberDigits = 400

// SplitNumber splits "1.5MiB" into "1", "5" and "MiB", checking that the
// number is plain decimal digits with an optional fraction (no sign, no
// exponent, no hex: a workload is read by people). It is exported so that
// every number of a workload (sizes, rates, weights) is read by one rule
// and refused with the same words; the unit is returned trimmed.
func SplitNumber(s string) (whole, frac, unit string, err error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	whole = s[:i]
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		frac = s[i+1 : j]
		if frac == "" {
			return "", "", "", errors.New("a decimal point needs digits after it")
		}
		i = j
	}
	if whole == "" {
		if strings.HasPrefix(s, "-") {
			return "", "", "", errors.New("must not be negative")
		}
		return "", "", "", errors.New("want a number")
	}
	if len(whole)+len(frac) > maxNumberDigits {
		return "", "", "", errors.New("too large")
	}
	return whole, frac, strings.TrimSpace(s[i:]), nil
}

// ParseSize parses a byte count such as "1834208", "8KiB", "1.5MiB" or
// "3MB". Sizes drive the simulated server and the inflation arithmetic, so
// the parse is exact: decimals are computed in integers and rounded to the
// nearest byte, a bare number or "B" must be whole, and negative values,
// unknown or ambiguous units and values beyond int64 are errors.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	whole, frac, unit, err := SplitNumber(t)
	if err != nil {
		return 0, fmt.Errorf("bad size %q: %w (a size is a byte count such as 1834208, 8KiB or 1.5MiB)", s, err)
	}
	mult, ok := sizeUnit(unit)
	if !ok {
		for _, u := range sizeUnitNames() {
			if strings.EqualFold(u, unit) {
				return 0, fmt.Errorf("bad size %q: unit %q is ambiguous: write KiB/MiB/GiB for powers of 1024 or KB/MB/GB for powers of 1000", s, unit)
			}
		}
		return 0, fmt.Errorf("bad size %q: unknown unit %q (want one of %s)", s, unit, strings.Join(sizeUnitNames(), ", "))
	}
	if frac != "" && mult == 1 {
		return 0, fmt.Errorf("bad size %q: a byte count is a whole number", s)
	}
	// value = round(whole.frac × mult), computed exactly.
	num, _ := new(big.Int).SetString(whole+frac, 10)
	num.Mul(num, big.NewInt(mult))
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Lsh(r, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return 0, fmt.Errorf("bad size %q: too large", s)
	}
	return q.Int64(), nil
}

// FormatSize is the canonical text of a byte count, the inverse of
// ParseSize: the largest IEC unit that divides n exactly ("8KiB", "3MiB"),
// otherwise plain bytes ("1834208"), so that the text never loses a byte.
func FormatSize(n int64) string {
	if n != 0 {
		for _, u := range []struct {
			name string
			mult int64
		}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
			if n%u.mult == 0 {
				return strconv.FormatInt(n/u.mult, 10) + u.name
			}
		}
	}
	return strconv.FormatInt(n, 10)
}

// Rate is a number of turns per second, kept with the text it was written
// as ("3000/min") so that reports and saved results show the user's own
// figure rather than "50.000000/s".
type Rate struct {
	PerSecond float64
	Text      string
}

// ParseRate parses a rate: "50/s", "3000/min", "2/ms", "100/h", "10/5s" or a
// bare number of turns per second ("0.5"). The number may carry an
// exponent ("2.3e-05/s", "4e+04/s"), as a rate computed by a program is
// often printed: refusing it would refuse rates readbench's own older
// versions wrote. The period after the slash is a Go duration, with or
// without its leading 1, or "min". The rate must be more than zero and
// finite: a zero rate would schedule nothing and hang a run.
func ParseRate(s string) (Rate, error) { return parseRate(s, false) }

// ParseStageRate parses the rate of one stage of a rate profile: any rate
// ParseRate reads, or zero ("0/s", "0"), a pause in which no turn starts.
// A stage of zero is what a quiet stretch of a recorded day is; the run
// still ends, because its stages set its length.
func ParseStageRate(s string) (Rate, error) { return parseRate(s, true) }

// parseRate is ParseRate, taking zero as a rate when zero is true.
func parseRate(s string, zero bool) (Rate, error) {
	t := strings.TrimSpace(s)
	num, per, hasPer := strings.Cut(t, "/")
	num = strings.TrimSpace(num)
	whole, frac, rest, err := SplitNumber(num)
	exp := ""
	if err == nil && rest != "" {
		exp, err = exponent(rest)
	}
	if err != nil {
		return Rate{}, fmt.Errorf("bad rate %q: %w (a rate is turns per period, such as 50/s, 3000/min or 2/ms)", s, err)
	}
	n := whole
	if frac != "" {
		n += "." + frac
	}
	f, err := strconv.ParseFloat(n+exp, 64)
	if err != nil || math.IsInf(f, 0) {
		return Rate{}, fmt.Errorf("bad rate %q: too large", s)
	}
	period := time.Second
	if hasPer {
		if period, err = ratePeriod(strings.TrimSpace(per)); err != nil {
			return Rate{}, fmt.Errorf("bad rate %q: %w", s, err)
		}
	}
	// One rounding at most: multiply or divide by an exact integer ratio
	// when the period divides a second or a second divides the period, so
	// "50/s" is exactly 50 and "3000/min" exactly 50.
	var ps float64
	switch {
	case time.Second%period == 0:
		ps = f * float64(time.Second/period)
	case period%time.Second == 0:
		ps = f / float64(period/time.Second)
	default:
		ps = f * float64(time.Second) / float64(period)
	}
	switch {
	case math.IsInf(ps, 0):
		return Rate{}, fmt.Errorf("bad rate %q: too large", s)
	case zero && strings.Trim(whole+frac, "0") == "": // written as zero, not too small to tell
		return Rate{PerSecond: 0, Text: t}, nil
	case !(ps > 0) && zero:
		return Rate{}, fmt.Errorf("bad rate %q: too small to be told from zero (write 0/s for a pause)", s)
	case !(ps > 0):
		return Rate{}, fmt.Errorf("bad rate %q: must be more than zero", s)
	}
	return Rate{PerSecond: ps, Text: t}, nil
}

// maxExponentDigits bounds an exponent's digits: no float64 needs more
// than three, and hostile input stays cheap.
const maxExponentDigits = 4

// exponent reads what follows a rate's digits as an exponent, "e-05" or
// "E+4", into the form strconv.ParseFloat reads; anything else is
// unexpected.
func exponent(rest string) (string, error) {
	if rest[0] != 'e' && rest[0] != 'E' {
		return "", fmt.Errorf("unexpected %q", rest)
	}
	digits := rest[1:]
	sign := ""
	if digits != "" && (digits[0] == '+' || digits[0] == '-') {
		sign, digits = digits[:1], digits[1:]
	}
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return "", fmt.Errorf("unexpected %q (an exponent is e and digits, such as e-05)", rest)
	}
	if len(digits) > maxExponentDigits {
		return "", errors.New("too large")
	}
	return "e" + sign + digits, nil
}

// ratePeriod parses the period of a rate: "s", "min", "ms", "5s".
func ratePeriod(p string) (time.Duration, error) {
	if p == "min" {
		return time.Minute, nil
	}
	d := p
	if d == "" || d[0] < '0' || d[0] > '9' {
		d = "1" + d
	}
	v, err := time.ParseDuration(d)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad period %q (want s, min, h, ms or a duration such as 10s)", p)
	}
	return v, nil
}

// String is the rate as written, or else a canonical "N/s" that ParseRate
// reads back to the same PerSecond.
func (r Rate) String() string {
	if r.Text != "" {
		return r.Text
	}
	return strconv.FormatFloat(r.PerSecond, 'f', -1, 64) + "/s"
}

// MarshalText writes the rate as text, so a saved result shows "50/s".
func (r Rate) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a rate written by MarshalText or by a person.
func (r *Rate) UnmarshalText(b []byte) error {
	v, err := ParseRate(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}
