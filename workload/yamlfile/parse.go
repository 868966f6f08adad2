package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/readbench/readbench/workload"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"gopkg.in/yaml.v3"
)

// Load reads and parses the workload file at path. I/O errors are wrapped
// with %w so callers can tell a missing file from a bad one; parse errors
// are *workload.Error.
func Load(path string) (*workload.Workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading workload: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a workload file: file names the source in error messages and
// data is its YAML. Defaults are applied and the result is validated. Every
// error is a *workload.Error naming file, line, column and key path, and
// every mistake of the file is reported at once: the error is
// workload.Errors, sorted by place, when there are several; the
// thresholds are parsed in the grammar of package bounds. It records where
// each key was written (workload.Places), so that a mistake found later
// (after the command line's overrides, by the plan or by discovery) still
// names the line to fix. Parse never panics, whatever the input.
func Parse(file string, data []byte) (w *workload.Workload, err error) {
	defer func() {
		if r := recover(); r != nil {
			w, err = nil, &workload.Error{File: file, Msg: fmt.Sprintf("cannot parse the file: %v", r)}
		}
	}()
	root, err := decodeOne(file, data)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, lines: sourceLines(data), pos: workload.Places{}, classAt: map[string]workload.Place{},
		listenAt: map[string]workload.Place{}}
	p.mark("", root)
	w = workload.Defaults()
	w.Source = file
	if err := topSection().read(p, root, "", w); err != nil {
		p.fail(err, false)
	}
	l := &w.Load
	if l.Duration == 0 && l.Turns == 0 && len(l.Stages) == 0 {
		if _, set := p.pos["load.duration"]; !set {
			l.Duration = workload.DefaultDuration
		}
	}
	p.checkThresholdClasses(w)
	p.checkThresholdListeners(w)
	w.SetPlaces(p.pos)
	// Validation runs whatever the walk found, so that a bad rate and an
	// unknown class are reported together; what it says about a key the
	// walk already refused is left out, being the same mistake.
	for _, e := range w.Problems() {
		if !p.explained(e.Key) {
			p.pos.Locate(e, file)
			p.record(e)
		}
	}
	if err := p.err(); err != nil {
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
			return nil, &workload.Error{File: file, Msg: "empty workload file (want a map with at least load and mix)"}
		}
		return nil, yamlError(file, data, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		at := &extra
		if len(extra.Content) > 0 {
			at = extra.Content[0]
		}
		return nil, &workload.Error{File: file, Line: at.Line, Col: at.Column, Msg: "a second YAML document: a workload file holds one (remove the ---)"}
	case !errors.Is(err, io.EOF):
		return nil, yamlError(file, data, err)
	}
	root := &doc
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil, &workload.Error{File: file, Msg: "empty workload file (want a map with at least load and mix)"}
		}
		root = doc.Content[0]
	}
	if isNull(resolve(root)) {
		return nil, &workload.Error{File: file, Line: root.Line, Col: root.Column, Msg: "empty workload file (want a map with at least load and mix)"}
	}
	return root, nil
}

// yamlError turns a YAML syntax error of data ("yaml: line 3: did not find
// expected key") into an *Error at the mistake's line and column, as
// syntaxPlace locates it; yaml.v3's own line and words when it cannot.
func yamlError(file string, data []byte, err error) *workload.Error {
	if line, col, msg, ok := syntaxPlace(data); ok {
		return &workload.Error{File: file, Line: line, Col: col, Msg: "bad YAML: " + msg}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &workload.Error{File: file, Msg: "bad YAML: " + msg}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			// yaml.v3 ends a line at a lone '\r' too: a line past the
			// file's '\n'-lines is no place a reader can find, so it is dropped.
			if line, err := strconv.Atoi(num); err == nil && line <= bytes.Count(data, []byte("\n"))+2 {
				e.Line, e.Msg = line, "bad YAML: "+tail
			}
		}
	}
	return e
}

// target reads "target": a string (see targets.Parse) or {stdio: [CMD, ARG...]}.
func (p *parser) target(v *yaml.Node, key string) (targets.Target, error) {
	if r := resolve(v); r.Kind != yaml.MappingNode {
		return convert(p, v, key, "a target", targets.Parse)
	}
	var t targets.Target
	before := len(p.errs)
	err := p.fields(v, key, []string{"stdio"}, func(_ string, v *yaml.Node) error {
		path := workload.JoinKey(key, "stdio")
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
	if err == nil && t.Kind == "" && len(p.errs) == before {
		err = p.at(resolve(v), key, "want a target string or {stdio: [CMD, ARG...]}")
	}
	return t, err
}

// attachments reads a count or a map of count -> weight; a bad entry is
// recorded and left out.
func (p *parser) attachments(v *yaml.Node, path string) (workload.Attachments, error) {
	if r := resolve(v); r.Kind != yaml.MappingNode {
		n, err := p.integer(v, path, 1, workload.MaxAttachments)
		return workload.Attachments{Fixed: int(n)}, err
	}
	ps, err := p.pairs(v, path, 0)
	if err != nil {
		return workload.Attachments{}, err
	}
	a := workload.Attachments{Weighted: make(map[int]int, len(ps))}
	for _, kv := range ps {
		key := workload.JoinKey(path, kv.key)
		p.mark(key, resolve(kv.v))
		n, err := parseInt(kv.key, 1, workload.MaxAttachments, func(format string, args ...any) error {
			return p.at(kv.k, key, "a key is a number of attachments: "+format, args...)
		})
		if _, dup := a.Weighted[int(n)]; err == nil && dup {
			err = p.at(kv.k, key, "duplicate count %d", n)
		}
		var wt int64
		if err == nil {
			wt, err = p.integer(kv.v, key, 1, math.MaxInt32)
		}
		if err != nil {
			p.fail(err, false)
			continue
		}
		a.Weighted[int(n)] = int(wt)
	}
	return a, nil
}

// mix reads the list of classes; each class's mistakes are recorded and
// the next class is read.
func (p *parser) mix(v *yaml.Node, path string) ([]workload.Class, error) {
	its, err := p.items(v, path)
	if err != nil {
		return nil, err
	}
	mix := make([]workload.Class, len(its))
	for i, it := range its {
		cp := workload.IndexKey(path, i)
		p.mark(cp, resolve(it))
		mix[i].Weight = 1
		if err := classSection().read(p, it, cp, &mix[i]); err != nil {
			p.fail(err, false)
		}
	}
	return mix, nil
}

// stages reads the rate profile of "load"; each stage's mistakes are
// recorded and the next stage is read.
func (p *parser) stages(v *yaml.Node, path string) ([]workload.Stage, error) {
	its, err := p.items(v, path)
	if err != nil {
		return nil, err
	}
	stages := make([]workload.Stage, len(its))
	for i, it := range its {
		sp := workload.IndexKey(path, i)
		p.mark(sp, resolve(it))
		if err := stageSection().read(p, it, sp, &stages[i]); err != nil {
			p.fail(err, false)
		}
	}
	return stages, nil
}

// uris reads a class's list of URIs, at least one.
func (p *parser) uris(v *yaml.Node, path string) ([]string, error) {
	uris, err := p.strs(v, path, false)
	if err == nil && len(uris) == 0 {
		err = p.at(resolve(v), path, "want at least one URI")
	}
	return uris, err
}

// size reads a class's size: a range ("1KiB..5MiB", a filter over a
// listing) or a size or distribution (what the simulated server makes).
func (p *parser) size(c *workload.Class, v *yaml.Node, path string) error {
	if r := resolve(v); r.Kind == yaml.ScalarNode && workload.IsSizeRange(r.Value) {
		sr, err := convert(p, v, path, "a size range", workload.ParseSizeRange)
		if err == nil {
			c.SizeRange = &sr
		}
		return err
	}
	d, err := convert(p, v, path, "a size", units.ParseSizeDist)
	if err == nil {
		c.Size = &d
	}
	return err
}

// vars reads template variables: name -> a value or a list of values; a
// bad variable is recorded and left out.
func (p *parser) vars(v *yaml.Node, path string) (map[string][]string, error) {
	ps, err := p.pairs(v, path, 0)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(ps))
	for _, kv := range ps {
		key := workload.JoinKey(path, kv.key)
		p.mark(key, resolve(kv.v))
		var vals []string
		var err error
		if r := resolve(kv.v); r.Kind == yaml.ScalarNode && !isNull(r) {
			vals = []string{r.Value}
		} else {
			vals, err = p.strs(kv.v, key, true)
		}
		if err == nil && len(vals) == 0 {
			err = p.at(resolve(kv.v), key, "want at least one value")
		}
		if err != nil {
			p.fail(err, false)
			continue
		}
		out[kv.key] = vals
	}
	return out, nil
}
