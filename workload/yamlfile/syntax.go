package yamlfile

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	goyaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/lexer"
	yamlparser "github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// The place of a YAML syntax error. yaml.v3 (which the workload is read
// with, for the positions of its nodes) words a syntax error as "line N:
// …" and no column, and its line is often not the mistake's: an unclosed
// '{' on line 2 is "line 1", a bad indent the line above it. Its maintained
// fork go.yaml.in/yaml/v3 reports the same. So a file yaml.v3 refuses is
// parsed again with github.com/goccy/go-yaml, only to locate the mistake:
// its line and column, and, for a flow collection never closed, the
// opening bracket rather than the end of the file where the parser gave
// up. Files yaml.v3 accepts never reach it.

// syntaxPlace is where goccy/go-yaml locates the syntax error of data,
// and its words for it; ok is false when it finds none (the two parsers
// disagree: yaml.v3's own message stands).
func syntaxPlace(data []byte) (line, col int, msg string, ok bool) {
	defer func() {
		if recover() != nil { // the locator must never take a parse down: yaml.v3's words stand
			line, col, msg, ok = 0, 0, "", false
		}
	}()
	_, err := yamlparser.ParseBytes(data, 0)
	var se *goyaml.SyntaxError
	if err == nil || !errors.As(err, &se) || se.Token == nil || se.Token.Position == nil {
		return 0, 0, "", false
	}
	at := se.Token.Position
	line, col, msg = at.Line, at.Column, plainer(se.Message)
	if overIndentedWords(se.Message) {
		if l, c, found := overIndentedKey(data, line); found {
			line, col, msg = l, c, overIndentedMsg
		}
	}
	if open := unclosedBefore(string(data), at.Offset); open != nil && closerWanted(msg) {
		msg = fmt.Sprintf("this %q is never closed (at %d:%d: %s)", open.Value, line, col, msg)
		line, col = open.Position.Line, open.Position.Column
	}
	if !placeIn(data, line, col) {
		return 0, 0, "", false // goccy counts lines otherwise (a lone '\r' ends one for it): yaml.v3's words stand
	}
	return line, col, msg, true
}

// placeIn reports whether line:col (from 1, col in runes) is a place in
// data with lines ended by '\n', or just past a line's end.
func placeIn(data []byte, line, col int) bool {
	lines := strings.Split(string(data), "\n")
	return line >= 1 && col >= 1 && line <= len(lines) && col <= utf8.RuneCountInString(lines[line-1])+1
}

// plainer rewords the parser's vaguest messages in the terms of the
// mistake a person makes.
func plainer(msg string) string {
	switch {
	case strings.HasPrefix(msg, "found character '\t'"):
		return "a tab: YAML indents with spaces, never tabs"
	case strings.HasSuffix(msg, "end token ']' not found"):
		return `this "[" is never closed`
	case strings.HasSuffix(msg, "end token '}' not found"):
		return `this "{" is never closed`
	case strings.HasPrefix(msg, "could not find end character of"):
		return "this quoted string is never closed (" + msg + ")"
	case msg == "value is not allowed in this context":
		return "a value is not allowed here (is this line indented as the lines above it?)"
	}
	return msg
}

// closerWanted reports whether a parser's message is a flow collection's
// missing end: "',' or '}' must be specified", "']' must be specified".
func closerWanted(msg string) bool {
	return strings.Contains(msg, "must be specified") && strings.ContainsAny(msg, "}]")
}

// unclosedBefore is the innermost '{' or '[' of src opened before offset
// and not closed by then; nil when none.
func unclosedBefore(src string, offset int) *token.Token {
	var open []*token.Token
	for _, tk := range lexer.Tokenize(src) {
		if tk.Position != nil && tk.Position.Offset >= offset {
			break
		}
		switch tk.Type {
		case token.MappingStartType, token.SequenceStartType:
			open = append(open, tk)
		case token.MappingEndType, token.SequenceEndType:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) == 0 {
		return nil
	}
	return open[len(open)-1]
}
