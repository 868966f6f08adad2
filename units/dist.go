package units

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/suggest"
)

// Kinds and units of a Dist. The kinds are the function names a workload
// writes ("lognormal(...)"), so a Dist's text is its own name; the unit says
// how its values read and print, which keeps a size from being taken for a
// duration when a result is loaded back.
const (
	DistFixed     = "fixed"     // always A
	DistLognormal = "lognormal" // A = median, B = p99
	DistUniform   = "uniform"   // A = min, B = max

	UnitBytes    = "bytes"    // sizes
	UnitDuration = "duration" // nanoseconds
)

// z99 is the standard normal quantile of 0.99: a lognormal whose p99 is
// z99 standard deviations (in log space) above its median.
const z99 = 2.3263478740408408

// MaxDistValue bounds the values of a Dist at 2^53, the largest integer a
// float64 holds exactly, so that a Dist's text always reads back to the
// same Dist (8 PiB or 104 days: far beyond any workload). It is exported
// because callers that round a sample must clamp it to the same bound.
const MaxDistValue = 1 << 53

// Dist is a fixed value or a distribution of sizes (bytes) or durations
// (nanoseconds). Real documents and servers are not all alike: a docs corpus
// has many small pages and a long tail of large ones, and a server answers
// in 12 ms at the median and 40 ms at the 99th percentile. A lognormal given
// by its median and p99 is how people state such figures, so that is how it
// is written: "lognormal(8KiB, 200KiB)", "lognormal(12ms, 40ms)".
type Dist struct {
	Kind string  // DistFixed, DistLognormal or DistUniform
	A, B float64 // fixed: A; lognormal: A = median, B = p99; uniform: A = min, B = max
	Unit string  // UnitBytes or UnitDuration
}

// ParseSizeDist parses a size or a distribution of sizes: "1834208",
// "8KiB", "lognormal(8KiB, 200KiB)" (median, p99), "uniform(1KiB, 4KiB)"
// (min, max), "fixed(8KiB)". Sizes are whole bytes (see ParseSize).
func ParseSizeDist(s string) (Dist, error) {
	return parseDist(s, UnitBytes, func(v string) (float64, error) {
		n, err := ParseSize(v)
		return float64(n), err
	})
}

// ParseDurationDist parses a duration or a distribution of durations in Go
// syntax: "20ms", "lognormal(12ms, 40ms)" (median, p99), "uniform(5ms, 10ms)"
// (min, max), "fixed(20ms)". Durations must not be negative.
func ParseDurationDist(s string) (Dist, error) {
	return parseDist(s, UnitDuration, func(v string) (float64, error) {
		d, err := ParseDuration(v)
		if err != nil {
			return 0, err
		}
		if d < 0 {
			return 0, fmt.Errorf("duration %q: must not be negative", v)
		}
		return float64(d), nil
	})
}

// distFuncs lists the distribution functions and their argument names.
func distFuncs() []string { return []string{DistFixed, DistLognormal, DistUniform} }

// parseDist parses "VALUE" or "FUNC(ARG, ...)" with one parser for values.
func parseDist(s, unit string, value func(string) (float64, error)) (Dist, error) {
	t := strings.TrimSpace(s)
	name, body, isCall := strings.Cut(t, "(")
	if !isCall {
		if strings.Contains(t, ")") {
			return Dist{}, fmt.Errorf("bad distribution %q: unbalanced parenthesis", s)
		}
		v, err := value(t)
		if err != nil {
			return Dist{}, err
		}
		d := Dist{Kind: DistFixed, A: v, Unit: unit}
		return d, d.Check()
	}
	name = strings.TrimSpace(name)
	body, closed := strings.CutSuffix(body, ")")
	if !closed || strings.ContainsAny(body, "()") {
		return Dist{}, fmt.Errorf("bad distribution %q: unbalanced parenthesis", s)
	}
	want := distArity(name)
	if want == 0 {
		return Dist{}, fmt.Errorf("bad distribution %q: unknown function %q%s", s, name, suggest.DidYouMean(name, distFuncs()))
	}
	args := strings.Split(body, ",")
	if len(args) != want {
		return Dist{}, fmt.Errorf("bad distribution %q: %s takes %d argument(s) (%s), got %d", s, name, want, distArgs(name), len(args))
	}
	var vals [2]float64
	for i, a := range args {
		v, err := value(strings.TrimSpace(a))
		if err != nil {
			return Dist{}, fmt.Errorf("bad distribution %q: %w", s, err)
		}
		vals[i] = v
	}
	d := Dist{Kind: name, A: vals[0], B: vals[1], Unit: unit}
	if err := d.Check(); err != nil {
		return Dist{}, fmt.Errorf("bad distribution %q: %w", s, err)
	}
	return d, nil
}

// distArity is the number of arguments of a distribution function, 0 for
// an unknown one.
func distArity(name string) int {
	switch name {
	case DistFixed:
		return 1
	case DistLognormal, DistUniform:
		return 2
	}
	return 0
}

// distArgs names the arguments of a distribution function for messages.
func distArgs(name string) string {
	switch name {
	case DistLognormal:
		return "median, p99"
	case DistUniform:
		return "min, max"
	}
	return "value"
}

// Check reports why d cannot be sampled, or nil: an unknown kind or unit,
// a negative, fractional or too large value, or parameters in the wrong
// order. The parsers call it, and so does workload validation, because a
// Dist can also be built by hand.
func (d Dist) Check() error {
	if d.Unit != UnitBytes && d.Unit != UnitDuration {
		return fmt.Errorf("unknown unit %q (want %s or %s)", d.Unit, UnitBytes, UnitDuration)
	}
	for _, v := range []float64{d.A, d.B} {
		if math.IsNaN(v) || v < 0 {
			return fmt.Errorf("must not be negative")
		}
		if v > MaxDistValue {
			return fmt.Errorf("too large (at most %s)", d.format(MaxDistValue))
		}
		if v != math.Trunc(v) {
			return fmt.Errorf("%v is not a whole number of %s", v, d.unitName())
		}
	}
	switch d.Kind {
	case DistFixed:
		if d.B != 0 {
			return fmt.Errorf("a fixed value has no second parameter")
		}
	case DistLognormal:
		if d.A <= 0 {
			return fmt.Errorf("the median of a lognormal must be more than 0")
		}
		if d.B < d.A {
			return fmt.Errorf("the p99 (%s) is below the median (%s)", d.format(d.B), d.format(d.A))
		}
	case DistUniform:
		if d.B < d.A {
			return fmt.Errorf("the min (%s) is above the max (%s)", d.format(d.A), d.format(d.B))
		}
	default:
		return fmt.Errorf("unknown distribution %q%s", d.Kind, suggest.DidYouMean(d.Kind, distFuncs()))
	}
	return nil
}

func (d Dist) unitName() string {
	if d.Unit == UnitDuration {
		return "nanoseconds"
	}
	return "bytes"
}

// Sample draws one value: a fixed value is returned as is, a lognormal is
// exp(mu + sigma·Z) with mu = ln(median) and sigma = ln(p99/median)/z99, a
// uniform is min + (max-min)·U. The result is never negative and never
// NaN or infinite. Callers round it to whole bytes or nanoseconds.
func (d Dist) Sample(r *rand.Rand) float64 {
	var v float64
	switch d.Kind {
	case DistLognormal:
		if d.A <= 0 || d.B <= d.A {
			v = d.A
			break
		}
		sigma := math.Log(d.B/d.A) / z99
		v = d.A * math.Exp(sigma*r.NormFloat64())
	case DistUniform:
		v = d.A + (d.B-d.A)*r.Float64()
	default:
		v = d.A
	}
	switch {
	case !(v > 0): // negative or NaN
		return 0
	case v > math.MaxFloat64:
		return math.MaxFloat64
	}
	return v
}

// Median is the distribution's median: the typical value, used in reports
// and to size defaults.
func (d Dist) Median() float64 {
	if d.Kind == DistUniform {
		return (d.A + d.B) / 2
	}
	return d.A
}

// String is the canonical text of d, which the matching parser reads back
// to the same Dist: "8KiB", "1834208", "lognormal(12ms,40ms)",
// "uniform(1KiB,4KiB)". It has no spaces because the simulated server's URIs
// carry it in their query string.
func (d Dist) String() string {
	switch d.Kind {
	case DistLognormal, DistUniform:
		return d.Kind + "(" + d.format(d.A) + "," + d.format(d.B) + ")"
	}
	return d.format(d.A)
}

// format writes one value of d in its unit.
func (d Dist) format(v float64) string {
	switch d.Unit {
	case UnitBytes:
		return FormatSize(int64(math.Round(v)))
	case UnitDuration:
		return time.Duration(math.Round(v)).String()
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// MarshalText writes the canonical text, so that a saved result shows
// "lognormal(12ms,40ms)" rather than a struct.
func (d Dist) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads the canonical text back. Sizes and durations cannot be
// confused: a duration always ends in a time unit, a size in a digit or "B".
func (d *Dist) UnmarshalText(b []byte) error {
	v, err := ParseSizeDist(string(b))
	if err != nil {
		var derr error
		if v, derr = ParseDurationDist(string(b)); derr != nil {
			return fmt.Errorf("%q is neither a size nor a duration distribution", b)
		}
	}
	*d = v
	return nil
}
