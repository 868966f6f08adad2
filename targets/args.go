package targets

import (
	"errors"
	"strings"
	"unicode"
)

// SplitArgs splits a command line into words the way Parse does for
// stdio targets: white space separates words; '...' groups characters
// literally; "..." groups them with \" and \\ as the only escapes; outside
// quotes a backslash takes the next character literally. There is no shell,
// so nothing else is special. It is exported for the command line, which
// splits --target values the same way. It is ours, not go-shellquote,
// google/shlex or mvdan.cc/sh: each reads some of a shell's grammar
// (comments, $ and |, line continuation) and words its errors otherwise,
// and none joins words so that Parse's trimming keeps a Unicode space
// (args_test.go pins each difference).
func SplitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

// JoinArgs is the inverse of SplitArgs: it quotes the words that need it.
func JoinArgs(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		switch {
		// Any Unicode space is quoted, not only the separators: Parse
		// trims the whole text (strings.TrimSpace), so a bare "\f" or
		// U+0085 at either end would be lost on the way back.
		case a != "" && !strings.ContainsAny(a, "'\"\\") && strings.IndexFunc(a, unicode.IsSpace) < 0:
			parts[i] = a
		case !strings.Contains(a, "'"):
			parts[i] = "'" + a + "'"
		default:
			parts[i] = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(a) + `"`
		}
	}
	return strings.Join(parts, " ")
}
