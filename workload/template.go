package workload

import (
	"fmt"
	"regexp"
	"strings"
)

// uriTemplate is a parsed URI template: RFC 6570 level 1 ({name}, with the
// value percent-encoded) plus the level 2 reserved expansion ({+name}, which
// keeps reserved characters such as "/" so a var can hold a path). That is
// what resource templates in MCP listings use in practice; the other
// operators are refused rather than expanded wrongly.
type uriTemplate struct {
	parts []tmplPart
	names []string // distinct variable names, in order of first use
}

// tmplPart is a literal (v < 0) or a variable (index v into names).
type tmplPart struct {
	lit      string
	v        int
	reserved bool
}

// parseTemplate parses a URI template.
func parseTemplate(s string) (*uriTemplate, error) {
	t := &uriTemplate{}
	index := map[string]int{}
	for len(s) > 0 {
		open := strings.IndexAny(s, "{}")
		if open < 0 {
			t.parts = append(t.parts, tmplPart{lit: s, v: -1})
			break
		}
		if s[open] == '}' {
			return nil, fmt.Errorf("a } without its {")
		}
		if open > 0 {
			t.parts = append(t.parts, tmplPart{lit: s[:open], v: -1})
		}
		end := strings.IndexAny(s[open+1:], "{}")
		if end < 0 || s[open+1+end] != '}' {
			return nil, fmt.Errorf("a { without its }")
		}
		expr := s[open+1 : open+1+end]
		s = s[open+1+end+1:]
		reserved := strings.HasPrefix(expr, "+")
		name := strings.TrimPrefix(expr, "+")
		if name != "" && strings.ContainsRune("#./;?&=,!@|", rune(name[0])) {
			return nil, fmt.Errorf("{%s}: operator %q is not supported (only {name} and {+name})", expr, name[0])
		}
		if !validVarName(name) {
			return nil, fmt.Errorf("{%s}: want one variable name of letters, digits and _ (no lists or modifiers)", expr)
		}
		i, ok := index[name]
		if !ok {
			i = len(t.names)
			index[name] = i
			t.names = append(t.names, name)
		}
		t.parts = append(t.parts, tmplPart{v: i, reserved: reserved})
	}
	return t, nil
}

func validVarName(n string) bool {
	if n == "" || n[0] == '.' || n[len(n)-1] == '.' {
		return false
	}
	for _, c := range []byte(n) {
		if !isUnreservedAlnum(c) && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isUnreservedAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// expand substitutes vals (indexed like names) into the template.
func (t *uriTemplate) expand(vals []string) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.v < 0 {
			b.WriteString(p.lit)
			continue
		}
		encodeVar(&b, vals[p.v], p.reserved)
	}
	return b.String()
}

// encodeVar percent-encodes v: everything but the unreserved characters,
// and for a reserved expansion also keeping the reserved characters and
// existing %XX triplets.
func encodeVar(b *strings.Builder, v string, reserved bool) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isUnreservedAlnum(c) || strings.IndexByte("-._~", c) >= 0:
			b.WriteByte(c)
		case reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0:
			b.WriteByte(c)
		case reserved && c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			b.WriteString(v[i : i+3])
			i += 2
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// TemplateNames returns the variable names of a listed resource template,
// in order of first use: what `readbench check` must find a value for to
// read one instance of it. A template with an operator other than "+" is
// an error, as in a class.
func TemplateNames(tmpl string) ([]string, error) {
	t, err := parseTemplate(tmpl)
	if err != nil {
		return nil, err
	}
	return t.names, nil
}

// ExpandTemplate substitutes vals (by variable name) into a listed
// resource template; every variable must have a value.
func ExpandTemplate(tmpl string, vals map[string]string) (string, error) {
	t, err := parseTemplate(tmpl)
	if err != nil {
		return "", err
	}
	in := make([]string, len(t.names))
	for i, n := range t.names {
		v, ok := vals[n]
		if !ok {
			return "", fmt.Errorf("no value for {%s}", n)
		}
		in[i] = v
	}
	return t.expand(in), nil
}

// MatchesTemplate reports whether uri is an instance of tmpl: the
// literals in place, a {name} holding no "/", "?" or "#", a {+name}
// anything but nothing. A listed resource that matches is the template's
// own example, known to exist.
func MatchesTemplate(tmpl, uri string) bool {
	t, err := parseTemplate(tmpl)
	if err != nil {
		return false
	}
	var re strings.Builder
	re.WriteString("^")
	for _, p := range t.parts {
		switch {
		case p.v < 0:
			re.WriteString(regexp.QuoteMeta(p.lit))
		case p.reserved:
			re.WriteString(".+?")
		default:
			re.WriteString("[^/?#]+?")
		}
	}
	re.WriteString("$")
	ok, err := regexp.MatchString(re.String(), uri)
	return err == nil && ok
}
