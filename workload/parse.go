package workload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"gopkg.in/yaml.v3"
)

// The keys of each map of the file (docs/workload.md).
func topKeys() []string {
	return []string{"name", "description", "target", "protocol", "sessions", "seed", "load",
		"turn", "mix", "headers", "allow_hosts", "thresholds"}
}

func loadKeys() []string {
	return []string{"model", "rate", "concurrency", "arrival", "warmup", "duration", "turns",
		"stages", "max_in_flight"}
}

func stageKeys() []string { return []string{"rate", "for", "ramp"} }

func turnKeys() []string { return []string{"attachments", "read_timeout", "deadline", "max_answer"} }

func classKeys() []string {
	return []string{"class", "weight", "uri", "uris", "template", "vars", "mime", "size",
		"delay", "entries", "expect", "ranged"}
}

func rangedKeys() []string { return []string{"chunk"} }

// Parse reads a workload file: file names the source in error messages and
// data is its YAML. Defaults are applied and the result is validated. Every
// error is an *Error naming file, line, column and key path; Parse never
// panics, whatever the input.
func Parse(file string, data []byte) (w *Workload, err error) {
	defer func() {
		if r := recover(); r != nil {
			w, err = nil, &Error{File: file, Msg: fmt.Sprintf("cannot parse the file: %v", r)}
		}
	}()
	root, err := decodeOne(file, data)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, pos: map[string]position{}}
	p.mark("", root)
	w = defaults()
	w.Source = file
	if err := p.fields(root, "", topKeys(), func(key string, v *yaml.Node) error {
		return p.top(w, key, v)
	}); err != nil {
		return nil, err
	}
	l := &w.Load
	if l.Duration == 0 && l.Turns == 0 && len(l.Stages) == 0 {
		if _, set := p.pos["load.duration"]; !set {
			l.Duration = DefaultDuration
		}
	}
	w.pos = p.pos
	if err := w.Validate(); err != nil {
		var e *Error
		if errors.As(err, &e) {
			locate(e, file, p.pos)
		}
		return nil, err
	}
	return w, nil
}

// decodeOne decodes the single YAML document of data.
func decodeOne(file string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: file, Msg: "empty workload file (want a map with at least load and mix)"}
		}
		return nil, yamlError(file, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		line := extra.Line
		if len(extra.Content) > 0 {
			line = extra.Content[0].Line
		}
		return nil, &Error{File: file, Line: line, Msg: "a second YAML document: a workload file holds one (remove the ---)"}
	case !errors.Is(err, io.EOF):
		return nil, yamlError(file, err)
	}
	root := &doc
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil, &Error{File: file, Msg: "empty workload file (want a map with at least load and mix)"}
		}
		root = doc.Content[0]
	}
	if isNull(resolve(root)) {
		return nil, &Error{File: file, Line: root.Line, Col: root.Column, Msg: "empty workload file (want a map with at least load and mix)"}
	}
	return root, nil
}

// yamlError turns a YAML syntax error ("yaml: line 3: did not find expected
// key") into an *Error with the line filled in.
func yamlError(file string, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{File: file, Msg: "bad YAML: " + msg}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(num); err == nil {
				e.Line, e.Msg = line, "bad YAML: "+tail
			}
		}
	}
	return e
}

// top reads one top-level key.
func (p *parser) top(w *Workload, key string, v *yaml.Node) error {
	var err error
	switch key {
	case "name":
		w.Name, err = p.str(v, key)
	case "description":
		w.Description, err = p.str(v, key)
	case "target":
		w.Target, err = p.target(v, key)
	case "protocol":
		w.Protocol, err = p.str(v, key)
	case "sessions":
		var n int64
		n, err = p.integer(v, key, 1, MaxSessions)
		w.Sessions = int(n)
	case "seed":
		w.Seed, err = p.integer(v, key, math.MinInt64, math.MaxInt64)
	case "load":
		err = p.fields(v, key, loadKeys(), func(k string, v *yaml.Node) error {
			return p.load(&w.Load, k, v, joinKey(key, k))
		})
	case "turn":
		err = p.fields(v, key, turnKeys(), func(k string, v *yaml.Node) error {
			return p.turn(&w.Turn, k, v, joinKey(key, k))
		})
	case "mix":
		w.Mix, err = p.mix(v, key)
	case "headers":
		w.Headers, err = p.stringMap(v, key)
	case "allow_hosts":
		w.AllowHosts, err = p.strs(v, key, false)
	case "thresholds":
		w.Thresholds, err = p.stringMap(v, key)
	}
	return err
}

// target reads "target": a string (see targets.Parse) or {stdio: [CMD, ARG...]}.
func (p *parser) target(v *yaml.Node, key string) (targets.Target, error) {
	if r := resolve(v); r.Kind != yaml.MappingNode {
		return convert(p, v, key, "a target", targets.Parse)
	}
	var t targets.Target
	err := p.fields(v, key, []string{"stdio"}, func(_ string, v *yaml.Node) error {
		path := joinKey(key, "stdio")
		var argv []string
		var err error
		if r := resolve(v); r.Kind == yaml.ScalarNode && !isNull(r) {
			argv, err = targets.SplitArgs(r.Value)
			if err != nil {
				return p.at(r, path, "%v", err)
			}
		} else if argv, err = p.strs(v, path, true); err != nil {
			return err
		}
		if len(argv) == 0 || argv[0] == "" {
			return p.at(resolve(v), path, "want the command and its arguments, as in [./server, --stdio]")
		}
		t = targets.Target{Kind: targets.Stdio, Argv: argv}
		return nil
	})
	if err == nil && t.Kind == "" {
		err = p.at(resolve(v), key, "want a target string or {stdio: [CMD, ARG...]}")
	}
	return t, err
}

// load reads one key of "load".
func (p *parser) load(l *Load, k string, v *yaml.Node, path string) error {
	var err error
	var n int64
	switch k {
	case "model":
		l.Model, err = p.str(v, path)
	case "rate":
		l.Rate, err = convert(p, v, path, "a rate", units.ParseRate)
	case "concurrency":
		n, err = p.integer(v, path, 1, MaxInFlight)
		l.Concurrency = int(n)
	case "arrival":
		l.Arrival, err = p.str(v, path)
	case "warmup":
		l.Warmup, err = p.duration(v, path)
	case "duration":
		l.Duration, err = p.duration(v, path)
	case "turns":
		n, err = p.integer(v, path, 1, math.MaxInt32)
		l.Turns = int(n)
	case "max_in_flight":
		n, err = p.integer(v, path, 1, MaxInFlight)
		l.MaxInFlight = int(n)
	case "stages":
		var its []*yaml.Node
		if its, err = p.items(v, path); err != nil {
			return err
		}
		l.Stages = make([]Stage, len(its))
		for i, it := range its {
			sp := indexKey(path, i)
			p.mark(sp, resolve(it))
			if err := p.fields(it, sp, stageKeys(), func(k string, v *yaml.Node) error {
				return p.stage(&l.Stages[i], k, v, joinKey(sp, k))
			}); err != nil {
				return err
			}
		}
	}
	return err
}

// stage reads one key of a stage.
func (p *parser) stage(s *Stage, k string, v *yaml.Node, path string) error {
	var err error
	switch k {
	case "rate":
		s.Rate, err = convert(p, v, path, "a rate", units.ParseRate)
	case "for":
		s.For, err = p.duration(v, path)
	case "ramp":
		s.Ramp, err = p.boolean(v, path)
	}
	return err
}

// turn reads one key of "turn".
func (p *parser) turn(t *Turn, k string, v *yaml.Node, path string) error {
	var err error
	switch k {
	case "attachments":
		t.Attachments, err = p.attachments(v, path)
	case "read_timeout":
		t.ReadTimeout, err = p.duration(v, path)
	case "deadline":
		t.Deadline, err = p.duration(v, path)
	case "max_answer":
		if t.MaxAnswer, err = convert(p, v, path, "a size", units.ParseSize); err == nil && t.MaxAnswer <= 0 {
			err = p.at(resolve(v), path, "must be more than zero, such as 256MiB")
		}
	}
	return err
}

// attachments reads a count or a map of count -> weight.
func (p *parser) attachments(v *yaml.Node, path string) (Attachments, error) {
	if r := resolve(v); r.Kind != yaml.MappingNode {
		n, err := p.integer(v, path, 1, MaxAttachments)
		return Attachments{Fixed: int(n)}, err
	}
	ps, err := p.pairs(v, path, 0)
	if err != nil {
		return Attachments{}, err
	}
	a := Attachments{Weighted: make(map[int]int, len(ps))}
	for _, kv := range ps {
		key := joinKey(path, kv.key)
		p.mark(key, resolve(kv.v))
		n, err := parseInt(kv.key, 1, MaxAttachments, func(format string, args ...any) error {
			return p.at(kv.k, key, "a key is a number of attachments: "+format, args...)
		})
		if err != nil {
			return Attachments{}, err
		}
		if _, dup := a.Weighted[int(n)]; dup {
			return Attachments{}, p.at(kv.k, key, "duplicate count %d", n)
		}
		wt, err := p.integer(kv.v, key, 1, math.MaxInt32)
		if err != nil {
			return Attachments{}, err
		}
		a.Weighted[int(n)] = int(wt)
	}
	return a, nil
}

// mix reads the list of classes.
func (p *parser) mix(v *yaml.Node, path string) ([]Class, error) {
	its, err := p.items(v, path)
	if err != nil {
		return nil, err
	}
	mix := make([]Class, len(its))
	for i, it := range its {
		cp := indexKey(path, i)
		p.mark(cp, resolve(it))
		c := &mix[i]
		c.Weight = 1
		if err := p.fields(it, cp, classKeys(), func(k string, v *yaml.Node) error {
			return p.class(c, k, v, joinKey(cp, k))
		}); err != nil {
			return nil, err
		}
	}
	return mix, nil
}

// class reads one key of a class.
func (p *parser) class(c *Class, k string, v *yaml.Node, path string) error {
	var err error
	switch k {
	case "class":
		c.Name, err = p.str(v, path)
	case "weight":
		c.Weight, err = p.number(v, path)
	case "uri":
		c.URI, err = p.str(v, path)
	case "uris":
		if c.URIs, err = p.strs(v, path, false); err == nil && len(c.URIs) == 0 {
			err = p.at(resolve(v), path, "want at least one URI")
		}
	case "template":
		c.Template, err = p.str(v, path)
	case "vars":
		c.Vars, err = p.vars(v, path)
	case "mime":
		c.MIME, err = p.str(v, path)
	case "size":
		if r := resolve(v); r.Kind == yaml.ScalarNode && isSizeRange(r.Value) {
			var sr SizeRange
			sr, err = convert(p, v, path, "a size range", ParseSizeRange)
			c.SizeRange = &sr
			break
		}
		var d units.Dist
		d, err = convert(p, v, path, "a size", units.ParseSizeDist)
		c.Size = &d
	case "delay":
		var d units.Dist
		d, err = convert(p, v, path, "a duration", units.ParseDurationDist)
		c.Delay = &d
	case "entries":
		var n int64
		n, err = p.integer(v, path, 0, MaxEntries)
		c.Entries = int(n)
	case "expect":
		c.Expect, err = p.str(v, path)
	case "ranged":
		r := &Ranged{}
		err = p.fields(v, path, rangedKeys(), func(k string, v *yaml.Node) error {
			var err error
			r.Chunk, err = convert(p, v, joinKey(path, k), "a size", units.ParseSize)
			return err
		})
		c.Ranged = r
	}
	return err
}

// vars reads template variables: name -> a value or a list of values.
func (p *parser) vars(v *yaml.Node, path string) (map[string][]string, error) {
	ps, err := p.pairs(v, path, 0)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(ps))
	for _, kv := range ps {
		key := joinKey(path, kv.key)
		p.mark(key, resolve(kv.v))
		var vals []string
		if r := resolve(kv.v); r.Kind == yaml.ScalarNode && !isNull(r) {
			vals = []string{r.Value}
		} else if vals, err = p.strs(kv.v, key, true); err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			return nil, p.at(resolve(kv.v), key, "want at least one value")
		}
		out[kv.key] = vals
	}
	return out, nil
}
