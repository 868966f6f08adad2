package protocol

import "encoding/binary"

// A strict JSON walker for the one-pass decoder (decode.go): unlike the
// lenient scanner (scan.go), which trusts a server's large answers, it
// accepts exactly what encoding/json's validation accepts, so a message
// it takes is one encoding/json takes too. Each function returns the
// offset just past what it walked, or -1 for anything it does not take.

// strictString walks the string whose opening quote is at b[i]. plain
// reports that it has no escapes and only printable ASCII, so its bytes
// are its value.
func strictString(b []byte, i int) (end int, plain bool) {
	if i >= len(b) || b[i] != '"' {
		return -1, false
	}
	plain = true
	for j := i + 1; j < len(b); j++ {
		for j+8 <= len(b) && !special8(binary.LittleEndian.Uint64(b[j:])) {
			j += 8 // eight plain bytes at once
		}
		if j >= len(b) {
			break
		}
		c := b[j]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			continue
		}
		switch {
		case c == '"':
			return j + 1, plain
		case c == '\\':
			plain = false
			if j+1 >= len(b) {
				return -1, false
			}
			j++
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, ok := hex4(b[j+1:]); !ok {
					return -1, false
				}
				j += 4
			default:
				return -1, false
			}
		case c < 0x20:
			return -1, false // encoding/json refuses raw control characters
		default:
			plain = false // DEL or a byte of a multi-byte (or invalid) UTF-8 sequence: kept raw, as encoding/json's validation does
		}
	}
	return -1, false
}

// special8 reports whether any of the eight bytes of w is not a plain
// string byte: a quote, a backslash, a control character, DEL or a byte
// of 0x80 and over. (x - 0x01…) & ^x & 0x80… is non-zero exactly when a
// byte of x is zero; with 0x20… in place of 0x01…, when a byte is under
// 0x20.
func special8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	return zero(w^(ones*'"'))|zero(w^(ones*'\\'))|zero(w^(ones*0x7f))|(w-ones*0x20)&^w&highs|w&highs != 0
}

// strictValue walks the value that starts at b[i] (no leading space);
// depth is its nesting.
func strictValue(b []byte, i, depth int) int {
	if i >= len(b) || depth > fastDepth {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := strictString(b, i)
		return end
	case c == '{':
		end, _ := strictObject(b, i, depth, nil, nil)
		return end
	case c == '[':
		return strictArray(b, i, depth)
	case c == 't':
		return strictLiteral(b, i, "true")
	case c == 'f':
		return strictLiteral(b, i, "false")
	case c == 'n':
		return strictLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return strictNumber(b, i)
	}
	return -1
}

func strictLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// strictNumber walks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; what
// follows is the caller's to check.
func strictNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// strictObject walks the object at b[i]; depth is its nesting. With
// visit not nil it also hands the object's members to visit with parent
// (nil: the members are params'; then the members of their object values
// are visited too, during the same walk); visited turns false when visit
// rejects a member, and the visits stop.
func strictObject(b []byte, i, depth int, parent []byte, visit func(parent, key, value []byte) error) (end int, visited bool) {
	visited = visit != nil
	i = skipSpace(b, i+1)
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
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return -1, false
		}
		vs := skipSpace(b, i+1)
		var ve int
		if visited && parent == nil && vs < len(b) && b[vs] == '{' {
			ve, visited = strictObject(b, vs, depth+1, key, visit)
		} else {
			ve = strictValue(b, vs, depth+1)
		}
		if ve < 0 {
			return -1, false
		}
		if visited && visit(parent, key, b[vs:ve:ve]) != nil {
			visited = false
		}
		i = skipSpace(b, ve)
		if i >= len(b) {
			return -1, false
		}
		if b[i] == '}' {
			return i + 1, visited
		}
		if b[i] != ',' {
			return -1, false
		}
		i = skipSpace(b, i+1)
	}
}

func strictArray(b []byte, i, depth int) int {
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		ve := strictValue(b, i, depth+1)
		if ve < 0 {
			return -1
		}
		i = skipSpace(b, ve)
		if i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = skipSpace(b, i+1)
	}
}
