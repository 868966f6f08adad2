package yamlfile

import (
	"errors"
	"fmt"
	"github.com/readbench/readbench/workload"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/suggest"
	"github.com/readbench/readbench/units"
	"gopkg.in/yaml.v3"
)

// The YAML file is walked as a yaml.Node tree rather than decoded into
// structs, because decoding loses what an error message needs: the line and
// column of each value, unknown keys, duplicate keys and the difference
// between a list and a map. These helpers check one node each.

// maxAliasDepth bounds alias and merge chains; YAML allows an anchor to
// contain an alias to itself, which would otherwise recurse forever.
const maxAliasDepth = 32

// maxNodes bounds the nodes one parse visits. Aliases let a small file
// expand into a huge tree ("billion laughs"); no real workload comes near.
const maxNodes = 1 << 20

// parser walks one file and records where each key path was written and
// every mistake it finds: a bad value is recorded and the walk goes on
// with the next key, so that one run of readbench names all of a file's
// mistakes, not only the first.
type parser struct {
	file  string
	lines []string // the source, for columns inside a scalar (see within)
	pos   workload.Places
	// classAt is where the class of each class.NAME threshold is
	// written, by metric, for the check that the mix has that class.
	classAt map[string]workload.Place
	// listenAt is where each threshold measured on listeners (notify.p99…)
	// is written, by metric, for the check that the file has listeners.
	listenAt map[string]workload.Place
	nodes    int               // nodes visited so far, aliases expanded
	errs     []*workload.Error // the mistakes found so far, at most maxErrors
	dropped  int               // the mistakes found beyond maxErrors

	// explain holds the key paths of the mistakes found (see fail), and
	// explainAbove every path above one of them.
	explain, explainAbove map[string]bool
}

// visit counts n more nodes, failing once the file expands beyond reason.
func (p *parser) visit(at *yaml.Node, path string, n int) error {
	p.nodes += n
	if p.nodes > maxNodes {
		return p.at(at, path, "the file expands to more than %d values: too many aliases", maxNodes)
	}
	return nil
}

// at builds an error at node n.
func (p *parser) at(n *yaml.Node, key, format string, args ...any) *workload.Error {
	return &workload.Error{File: p.file, Line: n.Line, Col: n.Column, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// mark records where key's value was written, for later errors about it.
func (p *parser) mark(key string, n *yaml.Node) {
	if _, ok := p.pos[key]; !ok {
		p.pos[key] = workload.Place{Line: n.Line, Col: n.Column}
	}
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < maxAliasDepth; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names what a node is, for "want X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return strconv.Quote(n.Value)
	}
	return "an unresolved alias"
}

// pair is one key and value of a map.
type pair struct {
	key  string
	k, v *yaml.Node
}

// pairs returns the entries of a map node in document order, with YAML
// merge keys ("<<: *defaults") applied: keys written in the map win over
// merged ones. A null node is an empty map. Duplicate keys are errors: YAML
// says they are, and the second silently winning hides mistakes.
func (p *parser) pairs(n *yaml.Node, path string, depth int) ([]pair, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		if path == "" {
			return nil, p.at(n, path, "a workload file is a map of keys such as name, load and mix; got %s", describe(n))
		}
		return nil, p.at(n, path, "want a map, got %s", describe(n))
	}
	if depth > maxAliasDepth {
		return nil, p.at(n, path, "merge keys nested too deep")
	}
	if err := p.visit(n, path, len(n.Content)); err != nil {
		return nil, err
	}
	var out []pair
	seen := map[string]*yaml.Node{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kr := resolve(k)
		if kr.Kind != yaml.ScalarNode {
			p.fail(p.at(k, path, "a key must be a plain string, got %s", describe(kr)), false)
			continue
		}
		if kr.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if first, dup := seen[kr.Value]; dup {
			p.fail(p.at(k, workload.JoinKey(path, kr.Value), "duplicate key (first set at line %d)", first.Line), false)
			continue
		}
		seen[kr.Value] = k
		out = append(out, pair{kr.Value, k, v})
	}
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if mr := resolve(m); mr.Kind == yaml.SequenceNode {
			srcs = mr.Content
		}
		for _, src := range srcs {
			sub, err := p.pairs(src, path, depth+1)
			if err != nil {
				return nil, err
			}
			for _, kv := range sub {
				if _, ok := seen[kv.key]; !ok {
					seen[kv.key] = kv.k
					out = append(out, kv)
				}
			}
		}
	}
	return out, nil
}

// fields walks a map whose keys are fixed: an unknown key is an error with a
// did-you-mean suggestion, and fn is called with each known key's value in
// document order. Keys starting with "x-" are ignored, as in Compose files,
// so that a file can hold anchors for its classes to merge ("<<: *md").
// The mistakes of each key are recorded (fail) and the walk goes on; the
// error is for n itself, when it is not a map.
func (p *parser) fields(n *yaml.Node, path string, known []string, fn func(key string, v *yaml.Node) error) error {
	ps, err := p.pairs(n, path, 0)
	if err != nil {
		return err
	}
	for _, kv := range ps {
		key := workload.JoinKey(path, kv.key)
		if strings.HasPrefix(kv.key, "x-") {
			continue // an extension key, such as x-defaults: &anchor {...}, is left alone
		}
		if !slices.Contains(known, kv.key) {
			p.fail(p.at(kv.k, key, "unknown key%s", suggest.DidYouMean(kv.key, known)), true)
			continue
		}
		p.mark(key, resolve(kv.v))
		if err := fn(kv.key, kv.v); err != nil {
			p.fail(err, false)
		}
	}
	return nil
}

// items returns the elements of a list node; a null node is an empty list.
func (p *parser) items(n *yaml.Node, path string) ([]*yaml.Node, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.at(n, path, "want a list, got %s", describe(n))
	}
	if err := p.visit(n, path, len(n.Content)); err != nil {
		return nil, err
	}
	return n.Content, nil
}

// scalar returns n resolved when it is a non-null scalar.
func (p *parser) scalar(n *yaml.Node, path, want string) (*yaml.Node, error) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return nil, p.at(n, path, "want %s, got %s", want, describe(n))
	}
	return n, nil
}

// str reads a string. Any scalar is taken as written ("name: 2024" is the
// name "2024"), since every string field here is free text.
func (p *parser) str(n *yaml.Node, path string) (string, error) {
	s, err := p.scalar(n, path, "a string")
	if err != nil {
		return "", err
	}
	return s.Value, nil
}

// strs reads a list of strings, refusing empty ones unless allowEmpty.
// The error is the first bad item's; the items after it are checked too.
func (p *parser) strs(n *yaml.Node, path string, allowEmpty bool) ([]string, error) {
	its, err := p.items(n, path)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(its))
	var first error
	for i, it := range its {
		s, err := p.str(it, workload.IndexKey(path, i))
		if err == nil && s == "" && !allowEmpty {
			err = p.at(resolve(it), workload.IndexKey(path, i), "empty string")
		}
		switch {
		case err != nil && first == nil:
			first = err
		case err != nil:
			p.fail(err, false)
		}
		out = append(out, s)
	}
	if first != nil {
		return nil, first
	}
	return out, nil
}

// integer reads a decimal whole number in [lo, hi]. Hex, octal and
// underscores are refused: a workload is read by people.
func (p *parser) integer(n *yaml.Node, path string, lo, hi int64) (int64, error) {
	s, err := p.scalar(n, path, "a whole number")
	if err != nil {
		return 0, err
	}
	return parseInt(s.Value, lo, hi, func(format string, args ...any) error {
		return p.at(s, path, format, args...)
	})
}

// parseInt is integer's check, shared with map keys.
func parseInt(v string, lo, hi int64, fail func(string, ...any) error) (int64, error) {
	i, err := strconv.ParseInt(v, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fail("%s is out of range (%d to %d)", v, lo, hi)
	case err != nil:
		return 0, fail("want a whole number, got %q", v)
	case i < lo || i > hi:
		return 0, fail("%d is out of range (%d to %d)", i, lo, hi)
	}
	return i, nil
}

// number reads a finite decimal number (weights).
func (p *parser) number(n *yaml.Node, path string) (float64, error) {
	s, err := p.scalar(n, path, "a number")
	if err != nil {
		return 0, err
	}
	whole, frac, rest, err := units.SplitNumber(strings.TrimSpace(s.Value))
	if err != nil || rest != "" {
		return 0, p.at(s, path, "want a number such as 70 or 0.5, got %q", s.Value)
	}
	f, err := strconv.ParseFloat(whole+"."+frac+"0", 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, p.at(s, path, "%s is too large", s.Value)
	}
	return f, nil
}

// boolean reads true or false.
func (p *parser) boolean(n *yaml.Node, path string) (bool, error) {
	s, err := p.scalar(n, path, "true or false")
	if err != nil {
		return false, err
	}
	if s.ShortTag() == "!!bool" {
		if b, err := strconv.ParseBool(strings.ToLower(s.Value)); err == nil {
			return b, nil
		}
	}
	return false, p.at(s, path, "want true or false, got %q", s.Value)
}

// duration reads a Go duration ("800ms", "1m30s"), never negative.
func (p *parser) duration(n *yaml.Node, path string) (time.Duration, error) {
	s, err := p.scalar(n, path, "a duration")
	if err != nil {
		return 0, err
	}
	d, err := units.ParseDuration(s.Value)
	if err != nil {
		return 0, p.at(s, path, "%v", err)
	}
	if d < 0 {
		return 0, p.at(s, path, "must not be negative, got %s", s.Value)
	}
	return d, nil
}

// convert reads a scalar with a parser such as units.ParseRate, reporting its
// error at the node.
func convert[T any](p *parser, n *yaml.Node, path, want string, parse func(string) (T, error)) (T, error) {
	var zero T
	s, err := p.scalar(n, path, want)
	if err != nil {
		return zero, err
	}
	v, err := parse(s.Value)
	if err != nil {
		return zero, p.at(s, path, "%v", err)
	}
	return v, nil
}

// stringMap reads a map of strings to strings (headers); a bad entry is
// recorded and left out.
func (p *parser) stringMap(n *yaml.Node, path string) (map[string]string, error) {
	ps, err := p.pairs(n, path, 0)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ps))
	for _, kv := range ps {
		key := workload.JoinKey(path, kv.key)
		p.mark(key, resolve(kv.v))
		v, err := p.str(kv.v, key)
		if err != nil {
			p.fail(err, false)
			continue
		}
		out[kv.key] = v
	}
	return out, nil
}
