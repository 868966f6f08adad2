package bounds

import "fmt"

// Error is a bound that does not parse: Col is the 1-based column (in
// bytes) of Input where the problem is, so a long --fail-on list points at
// the one bad bound.
type Error struct {
	Input string
	Col   int
	Msg   string
}

// Error renders "bound "turn.p99<8x0ms": column 11: …".
func (e *Error) Error() string {
	return fmt.Sprintf("bound %q: column %d: %s", e.Input, e.Col, e.Msg)
}

// errorAt makes an Error at byte offset off (0-based) of input.
func errorAt(input string, off int, msg string) *Error {
	return &Error{Input: input, Col: off + 1, Msg: msg}
}
