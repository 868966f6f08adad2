package bounds

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/units"
)

// Op is a threshold's comparison: the measured value must satisfy it.
type Op string

// The comparisons of a threshold.
const (
	Less      Op = "<"
	LessEq    Op = "<="
	Greater   Op = ">"
	GreaterEq Op = ">="
)

// Holds reports whether v op limit: whether a measured value v meets the
// threshold's limit.
func (o Op) Holds(v, limit float64) bool {
	switch o {
	case Less:
		return v < limit
	case LessEq:
		return v <= limit
	case Greater:
		return v > limit
	default:
		return v >= limit
	}
}

// Threshold is "METRIC OP LIMIT": a run passes it when its measured value
// satisfies the comparison. Limit is in the metric's unit (milliseconds,
// percent, per second, ratio, MiB).
type Threshold struct {
	Text   string // canonical: metric, op and limit as written, without spaces
	Metric Metric
	Op     Op
	Limit  float64
}

// Change is how a compare bound measures a change from base to new.
type Change int

// The kinds of change of a compare bound.
const (
	Relative Change = iota // +10%: new against base × (1 + 10/100)
	Absolute               // +50ms: new against base + 50 ms, in the metric's unit
	Points                 // +0.5pp: percentage points, for % metrics
)

// Bound is a compare bound "METRIC=±AMOUNT": the change from a base result
// to a new one may go as far as Amount in its direction. A + bound is
// broken by a rise beyond it (latency, errors), a - bound by a drop beyond
// it (rate). Amount carries the sign; for Relative it is in percent.
type Bound struct {
	Text   string
	Metric Metric
	Change Change
	Amount float64
}

// Limit is the farthest the new value may go from base.
func (b Bound) Limit(base float64) float64 {
	switch b.Change {
	case Relative:
		return base * (1 + b.Amount/100)
	default:
		return base + b.Amount
	}
}

// Broken reports whether newV went beyond the bound from base: above the
// limit for a + bound, below it for a - bound. A relative bound on a base
// of 0 is broken by any change in its direction.
func (b Bound) Broken(base, newV float64) bool {
	if b.Amount >= 0 && !math.Signbit(b.Amount) {
		return newV > b.Limit(base)
	}
	return newV < b.Limit(base)
}

// ParseThreshold parses one threshold, "turn.p99<800ms".
func ParseThreshold(s string) (Threshold, error) {
	return parseThreshold(s, s, 0)
}

// ParseThresholdPair parses the workload form, metric "turn.p99" and
// bound "<800ms" (thresholds: {turn.p99: "<800ms"}); columns count in
// the text metric+bound.
func ParseThresholdPair(metric, bound string) (Threshold, error) {
	s := metric + bound
	return parseThreshold(s, s, 0)
}

// ParseThresholds parses a comma-separated list of thresholds; an empty
// list is none.
func ParseThresholds(list string) ([]Threshold, error) {
	var out []Threshold
	err := eachItem(list, func(item string, off int) error {
		t, err := parseThreshold(list, item, off)
		out = append(out, t)
		return err
	})
	return out, err
}

// ParseBound parses one compare bound, "read.p99=+10%".
func ParseBound(s string) (Bound, error) {
	return parseBound(s, s, 0)
}

// ParseBounds parses a comma-separated list of compare bounds.
func ParseBounds(list string) ([]Bound, error) {
	var out []Bound
	err := eachItem(list, func(item string, off int) error {
		b, err := parseBound(list, item, off)
		out = append(out, b)
		return err
	})
	return out, err
}

// eachItem calls f with each comma-separated item of list and its byte
// offset, stopping at the first error.
func eachItem(list string, f func(item string, off int) error) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	off := 0
	for _, item := range strings.Split(list, ",") {
		if err := f(item, off); err != nil {
			return err
		}
		off += len(item) + 1
	}
	return nil
}

// split cuts item (at offset off of input) into its metric, operator and
// value, with the value's offset.
func split(input, item string, off int) (metric, op, value string, valOff int, err error) {
	if strings.TrimSpace(item) == "" {
		return "", "", "", 0, errorAt(input, off, "empty bound: want a metric, such as turn.p99<800ms or read.p99=+10%")
	}
	i := strings.IndexAny(item, "<>=")
	if i < 0 {
		return "", "", "", 0, errorAt(input, off+len(item), "want an operator: METRIC<LIMIT (a threshold, such as turn.p99<800ms) or METRIC=±CHANGE (a compare bound, such as read.p99=+10%)")
	}
	lead := len(item) - len(strings.TrimLeft(item, " \t"))
	metric = strings.TrimSpace(item[:i])
	j := i + 1
	if j < len(item) && item[j] == '=' && item[i] != '=' {
		j++
	}
	op = item[i:j]
	rest := item[j:]
	valOff = off + j + len(rest) - len(strings.TrimLeft(rest, " \t"))
	value = strings.TrimSpace(rest)
	if strings.ContainsAny(metric, " \t") {
		return "", "", "", 0, errorAt(input, off+lead+strings.IndexAny(metric, " \t"), fmt.Sprintf("a metric has no spaces: %q", metric))
	}
	return metric, op, value, valOff, nil
}

func parseThreshold(input, item string, off int) (Threshold, error) {
	name, op, value, valOff, err := split(input, item, off)
	if err != nil {
		return Threshold{}, err
	}
	lead := off + len(item) - len(strings.TrimLeft(item, " \t"))
	m, err := parseMetric(input, name, lead)
	if err != nil {
		return Threshold{}, err
	}
	if op == "=" {
		return Threshold{}, errorAt(input, valOff-1, "a threshold compares with <, <=, > or >= (METRIC=±CHANGE is a compare bound, for compare --fail-on)")
	}
	limit, err := parseAmount(input, value, valOff, m.Unit)
	if err != nil {
		return Threshold{}, err
	}
	return Threshold{Text: name + op + value, Metric: m, Op: Op(op), Limit: limit}, nil
}

func parseBound(input, item string, off int) (Bound, error) {
	name, op, value, valOff, err := split(input, item, off)
	if err != nil {
		return Bound{}, err
	}
	lead := off + len(item) - len(strings.TrimLeft(item, " \t"))
	m, err := parseMetric(input, name, lead)
	if err != nil {
		return Bound{}, err
	}
	if op != "=" {
		return Bound{}, errorAt(input, valOff-len(op), "a compare bound is METRIC=±CHANGE, such as read.p99=+10% (METRIC"+op+"LIMIT is a threshold, for run --threshold)")
	}
	if value == "" || (value[0] != '+' && value[0] != '-') {
		return Bound{}, errorAt(input, valOff, "want a sign: +CHANGE bounds a rise (read.p99=+10%), -CHANGE a drop (rate=-5%)")
	}
	sign := 1.0
	if value[0] == '-' {
		sign = -1
	}
	body := value[1:]
	b := Bound{Text: name + "=" + value, Metric: m}
	switch {
	case strings.HasSuffix(body, "pp"):
		if m.Unit != Percent {
			return Bound{}, errorAt(input, valOff+len(value)-2, fmt.Sprintf("pp (percentage points) is for %% metrics such as errors; %s is in %s", m.Name, m.Unit))
		}
		b.Change = Points
		b.Amount, err = parseNumber(input, strings.TrimSuffix(body, "pp"), valOff+1)
	case strings.HasSuffix(body, "%"):
		b.Change = Relative
		b.Amount, err = parseNumber(input, strings.TrimSuffix(body, "%"), valOff+1)
	default:
		if m.Unit == Percent {
			return Bound{}, errorAt(input, valOff+1, fmt.Sprintf("%s is a share: bound it in pp (percentage points, +0.5pp) or relatively (+10%%)", m.Name))
		}
		b.Change = Absolute
		b.Amount, err = parseAmount(input, body, valOff+1, m.Unit)
	}
	b.Amount *= sign
	if sign < 0 && b.Amount == 0 {
		b.Amount = math.Copysign(0, -1) // -0%: any drop breaks it
	}
	return b, err
}

// number is a plain decimal: no sign, exponent, hex, inf or nan.
var number = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

func parseNumber(input, s string, off int) (float64, error) {
	if !number.MatchString(s) {
		return 0, errorAt(input, off, fmt.Sprintf("want a plain number, not %q", s))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, errorAt(input, off, fmt.Sprintf("number %q is too large", s))
	}
	return f, nil
}

// parseAmount reads a limit or an absolute change in unit u, written as
// the unit wants (a duration for Millis…), at offset off of input.
func parseAmount(input, s string, off int, u Unit) (float64, error) {
	if s == "" {
		return 0, errorAt(input, off, "want a limit after the operator")
	}
	switch u {
	case Millis:
		if number.MatchString(s) {
			return 0, errorAt(input, off+len(s), fmt.Sprintf("%q needs a unit: a duration such as 800ms, 1.5s or 250us", s))
		}
		if s[0] < '0' || s[0] > '9' {
			return 0, errorAt(input, off, fmt.Sprintf("want a duration such as 800ms, not %q", s))
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, errorAt(input, off, fmt.Sprintf("bad duration %q: want one such as 800ms, 1.5s or 250us", s))
		}
		return float64(d) / float64(time.Millisecond), nil
	case Percent:
		num, ok := strings.CutSuffix(s, "%")
		if !ok {
			return 0, errorAt(input, off+len(s), fmt.Sprintf("%q: a share is written in %%, such as 1%%", s))
		}
		return parseNumber(input, num, off)
	case PerSecond:
		r, err := units.ParseRate(s)
		if err != nil {
			return 0, errorAt(input, off, err.Error())
		}
		return r.PerSecond, nil
	case MiB:
		n, err := units.ParseSize(s)
		if err != nil {
			return 0, errorAt(input, off, err.Error())
		}
		return float64(n) / (1 << 20), nil
	case Count:
		return parseNumber(input, s, off)
	default: // Ratio
		return parseNumber(input, strings.TrimSuffix(s, "x"), off)
	}
}

// CheckThresholdClasses answers the first threshold naming a class not in
// classes (the workload's mix), before a run starts.
func CheckThresholdClasses(ts []Threshold, classes []string) error {
	for _, t := range ts {
		if err := t.Metric.CheckClasses(classes); err != nil {
			return err
		}
	}
	return nil
}
