package yamlfile

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/readbench/readbench/workload"
	"gopkg.in/yaml.v3"
)

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
	var e *workload.Error
	if !errors.As(err, &e) {
		e = &workload.Error{File: p.file, Msg: err.Error()}
	}
	p.record(e)
	key := e.Key
	if unknownKey {
		key = workload.ParentKey(key)
	}
	if p.explain == nil {
		p.explain, p.explainAbove = map[string]bool{}, map[string]bool{}
	}
	p.explain[key] = true
	for k := key; k != ""; {
		k = workload.ParentKey(k)
		p.explainAbove[k] = true
	}
}

// record keeps e among the file's mistakes, or counts it once there are
// maxErrors.
func (p *parser) record(e *workload.Error) {
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
	for k := key; ; k = workload.ParentKey(k) {
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
		return workload.JoinErrors(p.errs)
	}
	es := workload.JoinErrors(p.errs).(workload.Errors)
	return append(es, &workload.Error{File: p.file, Msg: fmt.Sprintf("and %d more mistakes", p.dropped)})
}

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
func (p *parser) within(n *yaml.Node, off int) workload.Place {
	at := workload.Place{Line: n.Line, Col: n.Column}
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
	return workload.Place{Line: n.Line, Col: start + 1 + utf8.RuneCountInString(n.Value[:off])}
}
