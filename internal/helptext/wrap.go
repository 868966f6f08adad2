package helptext

import (
	"strings"
	"unicode/utf8"
)

// The wrappers: prose reflowed to a width, and example command lines
// broken where a shell can continue them.

// width is s's width in columns (a rune each: help is plain text).
func width(s string) int { return utf8.RuneCountInString(s) }

// words wraps the words of s into lines of at most w columns; a word
// longer than w (a URL) is cut, so that no line runs past w.
func words(s string, w int) []string {
	w = max(w, 1)
	var out []string
	cur := ""
	for _, word := range strings.Fields(s) {
		for width(word) > w {
			if cur != "" {
				out, cur = append(out, cur), ""
			}
			r := []rune(word)
			out, word = append(out, string(r[:w])), string(r[w:])
		}
		switch {
		case cur == "":
			cur = word
		case width(cur)+1+width(word) <= w:
			cur += " " + word
		default:
			out, cur = append(out, cur), word
		}
	}
	return append(out, cur)
}

// paragraphs reflows text written with hard line breaks: the lines of a
// paragraph are joined, except where a line is indented (an example), a
// list item, or a flag's sentence after a sentence that ended. Blank
// lines stay.
func paragraphs(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		n := len(out)
		trimmed := strings.TrimSpace(l)
		switch {
		case n == 0 || trimmed == "" || out[n-1] == "" || l != strings.TrimLeft(l, " \t") ||
			strings.HasPrefix(trimmed, "- ") || strings.HasPrefix(out[n-1], " "):
			out = append(out, strings.TrimRight(l, " "))
		case strings.HasPrefix(trimmed, "--") && strings.HasSuffix(out[n-1], ".") || strings.HasSuffix(out[n-1], ":"):
			out = append(out, trimmed)
		default:
			out[n-1] += " " + trimmed
		}
	}
	return out
}

// block writes text reflowed to w columns, each line after indent; an
// indented line is an example (command).
func block(text, indent string, w int) []string {
	var out []string
	for _, p := range paragraphs(text) {
		switch {
		case p == "":
			out = append(out, "")
		case strings.HasPrefix(p, " "):
			lead := p[:len(p)-len(strings.TrimLeft(p, " "))]
			out = append(out, example(strings.TrimLeft(p, " "), indent+lead, w)...)
		default:
			for _, l := range words(p, w-width(indent)) {
				out = append(out, indent+l)
			}
		}
	}
	return out
}

// example lays out one example command line in w columns after indent:
// as it is when it fits; else its "# comment" goes on a line of its own
// above it, and a command still too long is broken between its words
// (never inside quotes) with " \" continuations, so it pastes into a
// shell as it reads.
func example(line, indent string, w int) []string {
	if width(indent)+width(line) <= w {
		return []string{indent + line}
	}
	var out []string
	cmd, comment := SplitComment(line)
	if comment != "" {
		for _, l := range words(comment, w-width(indent)-2) {
			out = append(out, indent+"# "+l)
		}
	}
	const more = "    " // a continuation's extra indent
	cur, room := "", w-width(indent)
	toks := shellWords(cmd)
	for i, tok := range toks {
		need := width(cur) + 1 + width(tok)
		if i < len(toks)-1 {
			need += 2 // room for the " \" a line after it needs
		}
		switch {
		case cur == "":
			cur = tok
		case need <= room:
			cur += " " + tok
		default:
			out = append(out, indent+cur+" \\")
			cur, room = more+tok, w-width(indent)
		}
	}
	out = append(out, indent+cur)
	for i, l := range out { // a word longer than the line: cut, as words does
		if width(l) > w {
			out[i] = string([]rune(l)[:w])
		}
	}
	return out
}

// SplitComment splits a shell line at its comment, a " #" outside quotes,
// returning both parts trimmed; help layout and the README tour's test read
// example lines alike through it.
func SplitComment(line string) (cmd, comment string) {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && i > 0 && line[i-1] == ' ':
			return strings.TrimSpace(line[:i]), strings.TrimSpace(line[i+1:])
		}
	}
	return strings.TrimSpace(line), ""
}

// shellWords splits a command at the spaces outside quotes.
func shellWords(cmd string) []string {
	var out []string
	var quote rune
	cur := []rune{}
	for _, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if len(cur) > 0 {
				out, cur = append(out, string(cur)), cur[:0]
			}
			continue
		}
		cur = append(cur, r)
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

// Hang wraps text to lines of at most w columns, the lines after the
// first indented by indent: a long message laid out for a terminal, its
// continuation set off from the next message. Every line is wrapped as
// narrow as an indented one, so that a word cut to fit stays whole.
func Hang(text, indent string, w int) string {
	return strings.Join(words(text, w-width(indent)), "\n"+indent)
}
