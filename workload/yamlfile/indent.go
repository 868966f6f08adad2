package yamlfile

import (
	"regexp"
	"strings"
)

// An over-indented key ("  rate: 10/s" then "    duration: 2s") is the
// indentation mistake people make most, and the one the parsers place
// worst: YAML reads "10/s" and "duration" as one plain text running over
// two lines, so the complaint ("mapping value is not allowed in this
// context") lands on the line above, at the value, in the library's
// words. overIndentedKey finds the key itself.

// keyLine is a line that holds a mapping key: "name:" or "name: value".
var keyLine = regexp.MustCompile(`^[A-Za-z0-9_."'-]+[ \t]*:([ \t]|$)`)

// overIndentedWords are the parser's messages for an over-indented key.
func overIndentedWords(msg string) bool {
	return msg == "mapping value is not allowed in this context" ||
		strings.HasPrefix(msg, "value is not allowed in this context. map key-value is pre-defined")
}

// overIndentedMsg is what the error says instead.
const overIndentedMsg = "this key is indented further than the key above it: keys of one mapping start in the same column (a nested mapping goes under a key with no value)"

// overIndentedKey is the place (line and column, from 1) of the key
// indented further than a key with a value just above it, looked for at
// the line the parser blamed and at the next line that holds something;
// ok is false when neither is such a key.
func overIndentedKey(data []byte, line int) (keyAt, col int, ok bool) {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return 0, 0, false
	}
	if prev := content(lines, line-2, -1); prev >= 0 && overIndentedAfter(lines[prev], lines[line-1]) {
		return line, indent(lines[line-1]) + 1, true
	}
	if next := content(lines, line, 1); next >= 0 && overIndentedAfter(lines[line-1], lines[next]) {
		return next + 1, indent(lines[next]) + 1, true
	}
	return 0, 0, false
}

// overIndentedAfter says whether key is a key line indented further than
// above, a key line with a value (so nothing may nest under it).
func overIndentedAfter(above, key string) bool {
	a, k := strings.TrimLeft(above, " "), strings.TrimLeft(key, " ")
	if !keyLine.MatchString(a) || !keyLine.MatchString(k) || indent(key) <= indent(above) {
		return false
	}
	_, value, _ := strings.Cut(a, ":")
	value = strings.TrimSpace(value)
	return value != "" && !strings.HasPrefix(value, "#")
}

// content is the index of the first line from i on, stepping by step,
// that holds more than spaces and a comment; -1 when none.
func content(lines []string, i, step int) int {
	for ; i >= 0 && i < len(lines); i += step {
		t := strings.TrimSpace(lines[i])
		if t != "" && !strings.HasPrefix(t, "#") {
			return i
		}
	}
	return -1
}

// indent is the count of spaces a line starts with.
func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
