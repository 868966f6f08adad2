package client

import (
	"fmt"
	"time"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// answerLimit is the limit a transport applies: n, or the default
// (targets.DefaultMaxAnswer).
func answerLimit(n int64) int64 {
	if n <= 0 {
		return targets.DefaultMaxAnswer
	}
	return n
}

// maxKept bounds an answer readbench keeps whole to decode it: the
// handshake's (initialize, server/discover), a listing page's, any
// request's but a resources/read (scanned as it streams, never kept) and
// the read tool's parts (sized by the class's chunk: they keep the answer
// limit). The biggest listing page met in practice is a few MiB; an
// endless initialize, or a stdout line that never ends, fails here rather
// than growing to the answer limit (256 MiB, which cost 0.76 to 1.12 GB
// of memory as the buffer grew). docs/measurement.md states it.
const maxKept = 32 << 20

// keptLimit is how many bytes of the answer to a request of method may be
// kept whole, given the answer limit.
func keptLimit(method string, answer int64) int64 {
	if method == protocol.MethodToolsCall {
		return answer // a read tool's part: the class's chunk sizes it
	}
	return min(answer, maxKept)
}

// tooLargeError is an answer over a size limit: the answer limit
// (--max-answer), or the limit of an answer kept whole (maxKept). It
// unwraps to ErrProtocol: the server sent more than the client accepts, so
// a load run counts it as a protocol outcome.
type tooLargeError struct {
	limit, read int64
	kept        bool   // the limit is maxKept, which --max-answer does not raise
	unended     string // the message had not ended, nor shown its id: what it lacked ("no newline")
	announced   bool   // read is what a Content-Length announced, not bytes read
}

func (e *tooLargeError) Error() string {
	size := units.FormatSize(e.limit)
	var what string
	switch {
	case e.announced:
		what = fmt.Sprintf("the server announced an answer of %d bytes (Content-Length), over the size limit of %s", e.read, size)
	case e.unended != "":
		what = fmt.Sprintf("the server wrote %d bytes of one message with %s and no id yet, over the size limit of %s", e.read, e.unended, size)
	default:
		what = fmt.Sprintf("the answer is over the size limit of %s (%d bytes read when readbench stopped keeping it)", size, e.read)
	}
	if e.kept {
		return ErrProtocol.Error() + ": " + what + " for an answer readbench keeps whole to decode (the handshake's, a listing page's: any answer but a document's)"
	}
	return ErrProtocol.Error() + ": " + what + "; --max-answer or turn.max_answer raise the limit"
}

// Unwrap makes an answer over the limit a protocol violation for errors.Is.
func (e *tooLargeError) Unwrap() error { return ErrProtocol }

// tooLargeErr is the error a read over the answer limit ends with.
func tooLargeErr(limit, read int64) error { return &tooLargeError{limit: limit, read: read} }

// keptOver marks err, when it is an answer over limit, as over the limit
// of an answer kept whole (limit is less than the answer limit, so
// --max-answer is not the way to raise it).
func keptOver(err error, limit, answer int64) error {
	if e, ok := err.(*tooLargeError); ok && limit < answer {
		e.kept = true
	}
	return err
}

// tooLarge hands a shared stream's message over a limit to the request
// it answers, raw id, as err in place of the answer (or to the late
// counter, when that request was given up on). A message whose id could
// not be seen answers nothing: its request ends with its own timeout.
func (c *calls) tooLarge(id []byte, read int64, err error, now time.Time) {
	if id == nil {
		return
	}
	standIn := fmt.Appendf(nil, `{"id":%s}`, id)
	_ = c.route(standIn, read, now, func() *Response {
		return &Response{WireBytes: read, Done: now, err: err}
	})
}

// appendKept appends p to a message kept whole, its buffer grown by
// growKept.
func appendKept(dst, p []byte, limit int64) []byte {
	if len(dst)+len(p) > cap(dst) {
		dst = growKept(dst, len(dst)+len(p), limit)
	}
	return append(dst, p...)
}

// growKept returns dst with room for need bytes, doubling its capacity
// but never past limit (unless need is more): append's own growth would
// reserve more than the limit allows, and a buffer is never sized from
// what a server claims.
func growKept(dst []byte, need int, limit int64) []byte {
	if need <= cap(dst) {
		return dst
	}
	c := max(need, int(min(int64(max(2*cap(dst), 4096)), limit)))
	b := make([]byte, len(dst), c)
	copy(b, dst)
	return b
}
