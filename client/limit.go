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

// tooLargeErr is the error a read over the limit ends with: a protocol
// violation (the server sent more than the client accepts), so a load run
// counts it as a protocol outcome.
func tooLargeErr(limit, read int64) error {
	return protocolErr("the answer is over the size limit of %s (%d bytes read when readbench stopped keeping it; --max-answer or turn.max_answer raise the limit)",
		units.FormatSize(limit), read)
}

// tooLarge hands a shared stream's message over the limit to the request
// it answers, as an error in place of the answer (or to the late counter,
// when that request was given up on). A message whose id could not be
// seen answers nothing: its request ends with its own timeout.
func (c *calls) tooLarge(tl *protocol.TooLargeError, now time.Time) {
	if tl.ID == nil {
		return
	}
	standIn := fmt.Appendf(nil, `{"id":%s}`, tl.ID)
	err := tooLargeErr(tl.Limit, tl.Read)
	_ = c.route(standIn, tl.Read, now, func() *Response {
		return &Response{WireBytes: tl.Read, Done: now, err: err}
	})
}
