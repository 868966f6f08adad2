package yamlfile

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/suggest"
	"github.com/readbench/readbench/workload"
	"gopkg.in/yaml.v3"
)

// thresholds reads "thresholds", a map of metric to bound, sorted by
// metric (the order verdicts print in); a bad entry is recorded and left
// out.
func (p *parser) thresholds(v *yaml.Node, path string) ([]workload.Threshold, error) {
	ps, err := p.pairs(v, path, 0)
	if err != nil {
		return nil, err
	}
	out := make([]workload.Threshold, 0, len(ps))
	for _, kv := range ps {
		key := workload.JoinKey(path, kv.key)
		p.mark(key, resolve(kv.v))
		t, err := p.threshold(kv, key)
		if err != nil {
			p.fail(err, false)
			continue
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b workload.Threshold) int { return cmp.Compare(a.Metric, b.Metric) })
	return out, nil
}

// threshold parses one entry. A bounds.Error names a column of the text
// metric+bound; it is placed at that character of the key or of the value
// in the file (see parser.within).
func (p *parser) threshold(kv pair, key string) (workload.Threshold, error) {
	bound, err := p.str(kv.v, key)
	if err != nil {
		return workload.Threshold{}, err
	}
	if kv.key == "" || strings.TrimSpace(bound) == "" {
		return workload.Threshold{}, p.at(resolve(kv.v), key, "want a metric and a bound, such as turn.p99: \"<800ms\"")
	}
	parsed, err := bounds.ParseThresholdPair(kv.key, bound)
	var be *bounds.Error
	switch {
	case errors.As(err, &be):
		at := p.entryAt(kv, be.Col-1)
		return workload.Threshold{}, &workload.Error{File: p.file, Line: at.Line, Col: at.Col, Key: key, Msg: be.Msg}
	case err != nil:
		return workload.Threshold{}, p.at(resolve(kv.v), key, "%v", err)
	}
	t := workload.Threshold{Metric: kv.key, Bound: bound, Parsed: parsed}
	if parsed.Metric.Class != "" {
		p.classAt[kv.key] = p.entryAt(kv, len("class."))
	}
	if parsed.Metric.Subscriptions() {
		p.listenAt[kv.key] = p.entryAt(kv, 0)
	}
	return t, nil
}

// entryAt is the place in the file of byte off of the text metric+bound
// of entry kv.
func (p *parser) entryAt(kv pair, off int) workload.Place {
	if off < len(kv.key) {
		return p.within(resolve(kv.k), off)
	}
	return p.within(resolve(kv.v), off-len(kv.key))
}

// checkThresholdClasses refuses a threshold on a class the mix does not
// have, at the class's name in the file, with the closest class named; it
// runs once the whole file is read (the mix may come after the
// thresholds), and not when the mix itself had mistakes.
func (p *parser) checkThresholdClasses(w *workload.Workload) {
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
		at := p.classAt[t.Metric]
		p.fail(&workload.Error{File: p.file, Line: at.Line, Col: at.Col, Key: "thresholds." + t.Metric,
			Msg: fmt.Sprintf("unknown class %q%s", cls, suggest.DidYouMean(cls, names))}, false)
	}
}

// checkThresholdListeners refuses a threshold measured on listeners
// (notify.p99, notify.missed…) in a file without a listen section, at the
// metric in the file: such a run makes no notification, and a bound on
// none must not pass. A listen section that had mistakes of its own is
// written, so it is not said twice.
func (p *parser) checkThresholdListeners(w *workload.Workload) {
	if _, written := p.pos["listen"]; written || w.Listen != nil {
		return
	}
	for _, t := range w.Thresholds {
		if !t.Parsed.Metric.Subscriptions() {
			continue
		}
		at := p.listenAt[t.Metric]
		p.fail(&workload.Error{File: p.file, Line: at.Line, Col: at.Col, Key: "thresholds." + t.Metric,
			Msg: t.Metric + " is measured on listeners, and this workload has none: add a listen section (and changes), or drop the threshold"}, false)
	}
}
