package protocol

import "fmt"

// The one walker of whole JSON values, on the grammar of grammar.go. It
// has two sets of rules. The lenient scanner's (scan.go) trusts a
// server's large answers: a string's end is found with bytes.IndexByte
// and its bytes are not checked for raw control characters, a number is
// the lenient run; it reads whatever encoding/json accepts and a little
// more, and words each fault. The strict rules, the one-pass decoder's
// (decode.go) and Valid's, take exactly what encoding/json's validation
// takes, so a message the decoder takes is one encoding/json takes too;
// a strict fault is ErrSyntax, unworded, for the decoder then leaves the
// message to encoding/json, whose error stands.

// walk is the rules of one walk.
type walk struct {
	strict bool // exactly what encoding/json takes; else the lenient rules
	// params: the walk is of the params object of the one-pass decoder.
	// The members of a visited member's object value are visited too
	// (parent its key), and a member visit rejects stops the visits, not
	// the walk.
	params bool
	limit  int // the deepest nesting taken
}

// fail is the fault at b[i]: worded on a lenient walk, ErrSyntax itself
// (no allocation) on a strict one.
func (w walk) fail(i int, what string) error {
	if w.strict {
		return ErrSyntax
	}
	return syntaxErr(i, what)
}

// end is the offset just past the value at b[i], or -1 when the walk
// does not take it.
func (w walk) end(b []byte, i, depth int) int {
	end, err := w.value(b, i, depth)
	if err != nil {
		return -1
	}
	return end
}

// value walks the value that starts at b[i] (leading whitespace
// allowed), nested depth deep, and returns the offset just past it.
func (w walk) value(b []byte, i, depth int) (int, error) {
	if depth > w.limit {
		return 0, w.fail(i, "nesting too deep")
	}
	i = SkipSpace(b, i)
	if i >= len(b) {
		return 0, w.fail(i, "unexpected end")
	}
	switch c := b[i]; {
	case c == '"':
		return w.str(b, i)
	case c == '{':
		end, _, err := w.object(b, i, depth, nil, nil)
		return end, err
	case c == '[':
		return w.array(b, i, depth, nil)
	case IsNumberStart(c):
		return w.number(b, i)
	}
	if lit := Literal(b[i]); lit != "" {
		if end := literalEnd(b, i, lit); end >= 0 {
			return end, nil
		}
		return 0, w.fail(i, "bad literal")
	}
	if w.strict {
		return 0, ErrSyntax
	}
	return 0, syntaxErr(i, fmt.Sprintf("unexpected %q", b[i]))
}

// str walks the string whose opening quote is at b[i].
func (w walk) str(b []byte, i int) (int, error) {
	if !w.strict {
		return SkipString(b, i)
	}
	end, _ := strictString(b, i)
	if end < 0 {
		return 0, ErrSyntax
	}
	return end, nil
}

// number walks the number at b[i]: the lenient run, in the grammar too
// on a strict walk. What follows is the caller's to check.
func (w walk) number(b []byte, i int) (int, error) {
	var n Number
	end, bad := n.Feed(b, i)
	switch {
	case !n.Readable():
		return 0, w.fail(i, "bad number")
	case w.strict && (bad >= 0 || !n.Complete()):
		return 0, ErrSyntax
	}
	return end, nil
}

// object walks the object at b[i], nested depth deep. With visit not nil
// it hands each member to visit with parent, the raw key (between the
// quotes, escapes kept) and the raw value; visited reports that every
// visit accepted its member. A visit's error ends a lenient walk with
// that error; see walk.params for the decoder's.
func (w walk) object(b []byte, i, depth int, parent []byte, visit func(parent, key, value []byte) error) (end int, visited bool, err error) {
	visited = visit != nil
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, visited, nil
	}
	for {
		ks := i
		ke, err := w.str(b, i)
		if err != nil {
			return 0, false, err
		}
		key := b[ks+1 : ke-1 : ke-1]
		i = SkipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return 0, false, w.fail(i, "expected ':'")
		}
		vs := SkipSpace(b, i+1)
		var ve int
		if visited && w.params && parent == nil && vs < len(b) && b[vs] == '{' {
			ve, visited, err = w.object(b, vs, depth+1, key, visit)
		} else {
			ve, err = w.value(b, vs, depth+1)
		}
		if err != nil {
			return 0, false, err
		}
		if visited {
			if err := visit(parent, key, b[vs:ve:ve]); err != nil {
				if !w.params {
					return 0, false, err
				}
				visited = false
			}
		}
		i = SkipSpace(b, ve)
		if i >= len(b) {
			return 0, false, w.fail(i, "unterminated object")
		}
		if b[i] == '}' {
			return i + 1, visited, nil
		}
		if b[i] != ',' {
			return 0, false, w.fail(i, "expected ',' or '}'")
		}
		i = SkipSpace(b, i+1)
	}
}

// array walks the array at b[i], nested depth deep, handing each element
// to fn (nil: none); fn's error ends the walk with it.
func (w walk) array(b []byte, i, depth int, fn func(elem []byte) error) (int, error) {
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		vs := SkipSpace(b, i)
		ve, err := w.value(b, vs, depth+1)
		if err != nil {
			return 0, err
		}
		if fn != nil {
			if err := fn(b[vs:ve:ve]); err != nil {
				return 0, err
			}
		}
		i = SkipSpace(b, ve)
		if i >= len(b) {
			return 0, w.fail(i, "unterminated array")
		}
		if b[i] == ']' {
			return i + 1, nil
		}
		if b[i] != ',' {
			return 0, w.fail(i, "expected ',' or ']'")
		}
		i++
	}
}

// strictString walks the string whose opening quote is at b[i] as
// encoding/json does, and returns the offset just past it or -1. plain
// reports that it has no escapes and only ASCII, so its bytes are its
// value.
func strictString(b []byte, i int) (end int, plain bool) {
	if i >= len(b) || b[i] != '"' {
		return -1, false
	}
	plain = true
	for j := i + 1; ; {
		k, high := PlainRun(b, j)
		plain = plain && !high // a multi-byte (or invalid) UTF-8 sequence: kept raw, as encoding/json's validation does
		if k >= len(b) {
			return -1, false
		}
		switch b[k] {
		case '"':
			return k + 1, plain
		case '\\':
			plain = false
			if j = escapeEnd(b, k); j < 0 {
				return -1, false
			}
		default:
			return -1, false // encoding/json refuses raw control characters
		}
	}
}
