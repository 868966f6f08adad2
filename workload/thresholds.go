package workload

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/suggest"
	"gopkg.in/yaml.v3"
)

// Threshold is one entry of the file's thresholds, "turn.p99: <800ms": a
// bound the run is held to. It is parsed with the file, in the grammar of
// package bounds, so that a misspelt metric, an unknown class, an operator
// or a limit that does not parse is an error at its line and column like
// any other mistake of the file, before anything runs. Metric and Bound
// keep the entry as written: a result records it so (workload.thresholds).
type Threshold struct {
	Metric string           // the key as written: "turn.p99"
	Bound  string           // the value as written: "<800ms"
	Parsed bounds.Threshold // what the run is held to; set by Parse

	classAt position // where the class of a class.NAME metric is written
}

// Bounds is the parsed thresholds of w, in the order of their metrics:
// what a run of w is held to.
func (w *Workload) Bounds() []bounds.Threshold {
	out := make([]bounds.Threshold, 0, len(w.Thresholds))
	for _, t := range w.Thresholds {
		out = append(out, t.Parsed)
	}
	return out
}

// thresholds reads "thresholds", a map of metric to bound, sorted by
// metric (the order verdicts print in); a bad entry is recorded and left
// out.
func (p *parser) thresholds(v *yaml.Node, path string) ([]Threshold, error) {
	ps, err := p.pairs(v, path, 0)
	if err != nil {
		return nil, err
	}
	out := make([]Threshold, 0, len(ps))
	for _, kv := range ps {
		key := joinKey(path, kv.key)
		p.mark(key, resolve(kv.v))
		t, err := p.threshold(kv, key)
		if err != nil {
			p.fail(err, false)
			continue
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Threshold) int { return cmp.Compare(a.Metric, b.Metric) })
	return out, nil
}

// threshold parses one entry. A bounds.Error names a column of the text
// metric+bound; it is placed at that character of the key or of the value
// in the file (see parser.within).
func (p *parser) threshold(kv pair, key string) (Threshold, error) {
	bound, err := p.str(kv.v, key)
	if err != nil {
		return Threshold{}, err
	}
	if kv.key == "" || strings.TrimSpace(bound) == "" {
		return Threshold{}, p.at(resolve(kv.v), key, "want a metric and a bound, such as turn.p99: \"<800ms\"")
	}
	parsed, err := bounds.ParseThresholdPair(kv.key, bound)
	var be *bounds.Error
	switch {
	case errors.As(err, &be):
		at := p.entryAt(kv, be.Col-1)
		return Threshold{}, &Error{File: p.file, Line: at.line, Col: at.col, Key: key, Msg: be.Msg}
	case err != nil:
		return Threshold{}, p.at(resolve(kv.v), key, "%v", err)
	}
	t := Threshold{Metric: kv.key, Bound: bound, Parsed: parsed}
	if parsed.Metric.Class != "" {
		t.classAt = p.entryAt(kv, len("class."))
	}
	return t, nil
}

// entryAt is the place in the file of byte off of the text metric+bound
// of entry kv.
func (p *parser) entryAt(kv pair, off int) position {
	if off < len(kv.key) {
		return p.within(resolve(kv.k), off)
	}
	return p.within(resolve(kv.v), off-len(kv.key))
}

// checkThresholdClasses refuses a threshold on a class the mix does not
// have, at the class's name in the file, with the closest class named; it
// runs once the whole file is read (the mix may come after the
// thresholds), and not when the mix itself had mistakes.
func (p *parser) checkThresholdClasses(w *Workload) {
	if p.explained("mix") {
		return
	}
	names := make([]string, 0, len(w.Mix))
	for _, c := range w.Mix {
		names = append(names, c.Name)
	}
	for _, t := range w.Thresholds {
		cls := t.Parsed.Metric.Class
		if cls == "" || slices.Contains(names, cls) {
			continue
		}
		p.fail(&Error{File: p.file, Line: t.classAt.line, Col: t.classAt.col, Key: "thresholds." + t.Metric,
			Msg: fmt.Sprintf("unknown class %q%s", cls, suggest.DidYouMean(cls, names))}, false)
	}
}
