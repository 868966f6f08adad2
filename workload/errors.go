// Package workload reads, checks and samples readbench workload files.
//
// A workload (docs/workload.md) describes turns: each turn issues a number of
// parallel resources/read calls whose URIs are drawn from a weighted mix of
// classes. This package turns the YAML file into a checked Workload, with
// every mistake reported at its file, line, column and key path — all of a
// file's mistakes at once (Errors), its thresholds included, which are
// parsed here in the grammar of package bounds — and turns a Workload into
// a Plan: the deterministic sequence of turns a run issues, so
// that two runs with the same seed read the same URIs in the same order and
// shards of one run can generate their share of turns independently.
//
// The file is walked as YAML nodes, one section (sections.go: a table of
// the map's keys, each with how its value is read) per map of the file;
// yamlnode.go reads single values, validate.go checks what holds across
// keys, thresholds.go reads the thresholds, step.go makes a capacity
// step's workload; saved.go converts a Workload to the form a result saves
// it in (package saved) and back, for `readbench run --like`. It imports
// units, bounds, targets and saved (leaves) and the YAML library; never
// client, driver or results.
package workload

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Error is every parse and validation error of a workload. A load test is
// configured by hand, often under time pressure, so each error names the file,
// the line and column of the offending YAML node and the dotted key path
// (for example "mix[1].size") instead of a bare "invalid value": the command
// line prints it as is and exits 2.
//
// Line and Col are 1-based and 0 when the error does not come from a place in
// the file (for example a bad command-line override found by Validate).
// When a file has several mistakes, Parse and Validate return them all, as
// Errors.
type Error struct {
	File      string
	Line, Col int
	Key       string
	Msg       string
}

// Error formats the error as "FILE:LINE:COL: KEY: MSG", the form editors and
// terminals turn into a link, leaving out the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.File != "" && e.Line > 0:
		b.WriteString(e.File + ":" + strconv.Itoa(e.Line))
	case e.File != "":
		b.WriteString(e.File)
	case e.Line > 0:
		b.WriteString("line " + strconv.Itoa(e.Line))
	}
	if e.Line > 0 && e.Col > 0 {
		b.WriteString(":" + strconv.Itoa(e.Col))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every mistake of one file (or of one Validate), sorted by place
// in the file: the command line prints one per line, each with its
// FILE:LINE:COL, so that one run names everything to fix. errors.As finds
// the first *Error in it.
type Errors []*Error

// Error is one line per mistake.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap is the mistakes, for errors.As and errors.Is.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// join is the error of a list of mistakes: nil for none, the *Error
// itself for one, else Errors sorted by place (errors without a place,
// from the command line, first; then by line and column; ties keep the
// order they were found in).
func join(es []*Error) error {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return Errors(out)
}

// maxErrors bounds the mistakes one file reports: a file of aliases can
// repeat one mistake a million times, and a hundred lines already say
// what to fix.
const maxErrors = 100

// fail records a mistake found while walking. A mistake at a key path
// explains what validation later says about that path, the paths under it
// and the paths above it (a rate that does not parse is also a missing
// rate, and its class is incomplete); an unknown key explains its
// siblings too (a misspelt "rat" is the missing "rate").
func (p *parser) fail(err error, unknownKey bool) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{File: p.file, Msg: err.Error()}
	}
	p.record(e)
	key := e.Key
	if unknownKey {
		key = parentKey(key)
	}
	if p.explain == nil {
		p.explain, p.explainAbove = map[string]bool{}, map[string]bool{}
	}
	p.explain[key] = true
	for k := key; k != ""; {
		k = parentKey(k)
		p.explainAbove[k] = true
	}
}

// record keeps e among the file's mistakes, or counts it once there are
// maxErrors.
func (p *parser) record(e *Error) {
	if len(p.errs) < maxErrors {
		p.errs = append(p.errs, e)
	} else {
		p.dropped++
	}
}

// explained reports whether a validation error at key follows from a
// mistake already recorded: at key, above it or below it.
func (p *parser) explained(key string) bool {
	if p.explainAbove[key] {
		return true
	}
	for k := key; ; k = parentKey(k) {
		if p.explain[k] {
			return true
		}
		if k == "" {
			return false
		}
	}
}

// err is the error of the mistakes recorded (see join), with a last line
// counting those beyond maxErrors.
func (p *parser) err() error {
	if p.dropped == 0 {
		return join(p.errs)
	}
	es := join(p.errs).(Errors)
	return append(es, &Error{File: p.file, Msg: fmt.Sprintf("and %d more mistakes", p.dropped)})
}

// errorf builds an *Error that is not tied to a place in the file; Parse
// fills in the place from the key path when it can.
func errorf(key, format string, args ...any) *Error {
	return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
}

// position is a 1-based place in the YAML source.
type position struct{ line, col int }

// sourceLines splits a file into lines where YAML does: at LF, CR, CRLF,
// NEL, LS and PS, so that a node's line indexes the right one.
func sourceLines(data []byte) []string {
	var lines []string
	s := string(data)
	for {
		i := strings.IndexAny(s, "\r\n\u0085\u2028\u2029")
		if i < 0 {
			return append(lines, s)
		}
		lines = append(lines, s[:i])
		_, n := utf8.DecodeRuneInString(s[i:])
		if strings.HasPrefix(s[i:], "\r\n") {
			n = 2
		}
		s = s[i+n:]
	}
}

// within is the place of byte off of scalar n's value in the source: exact
// when the value is written on n's line as it reads (plain, or quoted
// without escapes), else n's own place. Columns count characters, as the
// YAML library's do.
func (p *parser) within(n *yaml.Node, off int) position {
	at := position{n.Line, n.Column}
	if n.Line < 1 || n.Line > len(p.lines) || n.Column < 1 || off < 0 || off > len(n.Value) {
		return at
	}
	line := []rune(p.lines[n.Line-1])
	start := n.Column - 1
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		start++
	}
	if start > len(line) || !strings.HasPrefix(string(line[start:]), n.Value) {
		return at
	}
	return position{n.Line, start + 1 + utf8.RuneCountInString(n.Value[:off])}
}

// locate fills in the file and the place of e from the positions recorded
// while parsing: the exact key path when it was written, or else the nearest
// enclosing one ("mix[1].size" falls back to "mix[1]", then "mix", then the
// document), so a missing key is reported where it should have been written.
func locate(e *Error, file string, pos map[string]position) {
	e.File = file
	if pos == nil || e.Line > 0 {
		return
	}
	for key := e.Key; ; key = parentKey(key) {
		if p, ok := pos[key]; ok {
			e.Line, e.Col = p.line, p.col
			return
		}
		if key == "" {
			return
		}
	}
}

// parentKey strips the last component of a dotted key path:
// "mix[1].size" → "mix[1]" → "mix" → "".
func parentKey(key string) string {
	i := strings.LastIndexAny(key, ".[")
	if i < 0 {
		return ""
	}
	return key[:i]
}

// joinKey appends a map key to a key path.
func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// indexKey appends a list index to a key path.
func indexKey(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
