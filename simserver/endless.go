package simserver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/readbench/readbench/protocol"
)

// A hostile handshake (Options.EndlessHandshake): the answer to
// initialize or server/discover starts as a valid result, then its
// "instructions" string never ends. Over stdio no newline ever comes;
// over HTTP the body is a JSON answer of no stated length that streams
// until the client goes. A client that keeps such an answer whole to
// decode it must give up at a limit of its own, naming it, rather than
// grow to its largest answer or wait out its handshake timeout (issue 47,
// item 14).

// endlessMax bounds what one endless answer writes (1 GiB), so that a
// client that never stops reading does not keep the server writing for
// ever; endlessPiece is what one write carries.
const (
	endlessMax   = 1 << 30
	endlessPiece = 64 << 10
)

// isHandshake reports whether method opens a session: the answer
// EndlessHandshake makes endless.
func isHandshake(method string) bool {
	return method == protocol.MethodInitialize || method == protocol.MethodDiscover
}

// writeEndless writes the endless answer to request id on w, piece by
// piece, until ctx ends, a write fails or endlessMax bytes went; flush,
// when set, is called after each piece (an HTTP response's Flusher).
func writeEndless(ctx context.Context, w io.Writer, flush func(), id []byte) {
	head := []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"protocolVersion":"` + protocol.LatestLegacy + `","capabilities":{},"serverInfo":{"name":"endless","version":"` + strconv.Itoa(endlessMax) + `"},"instructions":"`)
	if _, err := w.Write(head); err != nil {
		return
	}
	piece := bytes.Repeat([]byte("A"), endlessPiece)
	for n := len(head); n < endlessMax && ctx.Err() == nil; n += len(piece) {
		if _, err := w.Write(piece); err != nil {
			return
		}
		if flush != nil {
			flush()
		}
	}
}

// serveEndlessHTTP answers an HTTP handshake request with the endless
// answer: a JSON body without a Content-Length, flushed piece by piece.
func serveEndlessHTTP(w http.ResponseWriter, r *http.Request, id []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	var flush func()
	if f, ok := w.(http.Flusher); ok {
		flush = f.Flush
	}
	writeEndless(r.Context(), w, flush, id)
}

// endlessStdio answers a stdio handshake request with the endless answer,
// from the loop: the server reads no more input, as a server stuck
// writing one message would not. Only the connection's end (the client
// closing the pipe, or a signal) stops it.
func (c *stdioConn) endlessStdio(id []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return
	}
	writeEndless(c.ctx, c.w, func() {
		if c.werr == nil {
			c.werr = c.w.Flush()
		}
	}, id)
}
