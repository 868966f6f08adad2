package protocol

// A strict JSON walker for the one-pass decoder (decode.go): unlike the
// lenient scanner (scan.go), which trusts a server's large answers, it
// accepts exactly what encoding/json's validation accepts, so a message
// it takes is one encoding/json takes too. Each function returns the
// offset just past what it walked, or -1 for anything it does not take.

// strictString walks the string whose opening quote is at b[i]. plain
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

// strictValue walks the value that starts at b[i] (no leading space);
// depth is its nesting, limit the deepest it may be.
func strictValue(b []byte, i, depth, limit int) int {
	if i >= len(b) || depth > limit {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := strictString(b, i)
		return end
	case c == '{':
		end, _ := strictObject(b, i, depth, limit, nil, nil)
		return end
	case c == '[':
		return strictArray(b, i, depth, limit)
	case IsNumberStart(c):
		return strictNumber(b, i)
	}
	if lit := Literal(b[i]); lit != "" {
		return literalEnd(b, i, lit)
	}
	return -1
}

// strictNumber walks the number at b[i]; what follows is the caller's to
// check.
func strictNumber(b []byte, i int) int {
	var n Number
	end, bad := n.Feed(b, i)
	if bad >= 0 || !n.Complete() {
		return -1
	}
	return end
}

// strictObject walks the object at b[i]; depth is its nesting. With
// visit not nil it also hands the object's members to visit with parent
// (nil: the members are params'; then the members of their object values
// are visited too, during the same walk); visited turns false when visit
// rejects a member, and the visits stop.
func strictObject(b []byte, i, depth, limit int, parent []byte, visit func(parent, key, value []byte) error) (end int, visited bool) {
	visited = visit != nil
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, visited
	}
	for {
		ks := i
		ke, _ := strictString(b, i)
		if ke < 0 {
			return -1, false
		}
		key := b[ks+1 : ke-1 : ke-1]
		i = SkipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return -1, false
		}
		vs := SkipSpace(b, i+1)
		var ve int
		if visited && parent == nil && vs < len(b) && b[vs] == '{' {
			ve, visited = strictObject(b, vs, depth+1, limit, key, visit)
		} else {
			ve = strictValue(b, vs, depth+1, limit)
		}
		if ve < 0 {
			return -1, false
		}
		if visited && visit(parent, key, b[vs:ve:ve]) != nil {
			visited = false
		}
		i = SkipSpace(b, ve)
		if i >= len(b) {
			return -1, false
		}
		if b[i] == '}' {
			return i + 1, visited
		}
		if b[i] != ',' {
			return -1, false
		}
		i = SkipSpace(b, i+1)
	}
}

func strictArray(b []byte, i, depth, limit int) int {
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		ve := strictValue(b, i, depth+1, limit)
		if ve < 0 {
			return -1
		}
		i = SkipSpace(b, ve)
		if i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = SkipSpace(b, i+1)
	}
}
