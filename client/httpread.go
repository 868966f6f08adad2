package client

import (
	"bufio"
	"errors"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/readbench/readbench/protocol"
)

// Reading the answer to a read over Streamable HTTP as it streams in: the
// body (JSON, or the SSE events carrying it) goes through a fixed buffer
// to the answer scanner, never kept. A read borrows a readBuf once its
// answer's head has arrived and gives it back at the answer's end, so
// what exists follows the answers arriving at one moment, not the reads
// in flight (a read waiting for its server holds none) nor the sessions
// open. The buffer of a JSON answer starts small and doubles, up to
// readBufMax, while reads fill it: a 1 KiB answer never needs more than
// the first size, a 40 MiB blob streams through readBufMax whatever its
// size. A read fills the buffer only when the kernel holds that much of
// the answer already, as it does when several blobs arrive at once: then
// one system call takes up to 256 KiB. At 64 KiB, 16 reads in flight of
// a 1 MiB blob made 24 system calls an answer (bombardier, reading up to
// what the answer has left, made 4) and cost 535 µs of CPU a read; at 256
// KiB, 208–256 µs, 0.90–0.93× bombardier's in the same rounds.
// An SSE answer is read through a bufio.Reader of readBufSize.

// readBufSize is the buffered reader's size for an SSE answer;
// readBufMax the largest buffer a JSON answer is read through;
// readBufFirst the size a new buffer starts at.
const (
	readBufSize  = 64 << 10
	readBufMax   = 256 << 10
	readBufFirst = 4 << 10
)

// readBuf is what one read in flight borrows: its buffer and scanner,
// and the reader of an SSE answer.
type readBuf struct {
	buf []byte
	sc  answerScanner
	br  *bufio.Reader
	ev  sseEvents
}

// events reads an SSE body through rb's buffered reader.
func (rb *readBuf) events(body io.Reader) *sseEvents {
	if rb.br == nil {
		rb.br = bufio.NewReaderSize(body, readBufSize)
	} else {
		rb.br.Reset(body)
	}
	rb.ev = sseEvents{r: rb.br}
	return &rb.ev
}

// filled is told that a read put n bytes in rb.buf: a buffer that came
// back full is doubled (up to readBufMax), since the answer is larger.
func (rb *readBuf) filled(n int) {
	if n == len(rb.buf) && n < readBufMax {
		rb.buf = make([]byte, min(2*n, readBufMax))
	}
}

// readBufs is a pool of readBufs. One serves every Streamable HTTP
// session of the process (sharedReadBufs): a pool per session would keep
// a buffer per session between collections, the cost of a session that
// does nothing.
type readBufs struct{ pool sync.Pool }

// sharedReadBufs is the pool every httpTransport borrows from; like
// net/http's own buffer pools it holds no state a caller can see.
var sharedReadBufs readBufs

func (p *readBufs) get() *readBuf {
	if b, ok := p.pool.Get().(*readBuf); ok {
		return b
	}
	return &readBuf{buf: make([]byte, readBufFirst)}
}

func (p *readBufs) put(b *readBuf) {
	if b.br != nil {
		b.br.Reset(nil) // holds no body between reads
	}
	b.ev = sseEvents{}
	p.pool.Put(b)
}

// readHTTPRead reads the answer to read request id, classifying it as it
// arrives. A status other than 200 (an error body, small) and a content
// type that is neither JSON nor SSE go the way of readHTTPAnswer.
func readHTTPRead(resp *http.Response, id, maxAnswer int64, spec *readSpec, reply func([]byte), rb *readBuf) (*Response, error) {
	ct := contentMediaType(firstValue(resp.Header, "Content-Type"))
	limit := answerLimit(maxAnswer)
	switch {
	case resp.StatusCode != http.StatusOK:
	case ct == protocol.ContentTypeJSON:
		if resp.ContentLength > limit {
			return nil, &tooLargeError{limit: limit, read: resp.ContentLength, announced: true}
		}
		return readJSONRead(resp.Body, id, limit, spec, rb)
	case ct == protocol.ContentTypeSSE:
		return readSSERead(resp.Body, id, limit, spec, reply, rb)
	}
	a, err := readHTTPAnswer(resp, id, maxAnswer, reply)
	if err != nil {
		return nil, err
	}
	a.read = bufferedReadAnswer(a.Body, a.WireBytes, spec).read
	return a, nil
}

// firstValue is h's first value of name, a canonical header name: Get
// without canonicalizing name on every read (a response's names are
// canonical, from net/http or h1 alike).
func firstValue(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// contentMediaType is the media type of a Content-Type as mime.ParseMediaType
// gives it ("" when it does not parse); the plain JSON and SSE types
// servers send are known without parsing.
func contentMediaType(contentType string) string {
	switch contentType {
	case protocol.ContentTypeJSON, protocol.ContentTypeSSE:
		return contentType
	}
	ct, _, _ := mime.ParseMediaType(contentType)
	return ct
}

// readJSONRead scans an application/json answer through rb.
func readJSONRead(body io.Reader, id, limit int64, spec *readSpec, rb *readBuf) (*Response, error) {
	sc := &rb.sc
	sc.reset(true, spec.uri, spec.digest)
	var n int64
	for {
		k, err := body.Read(rb.buf)
		n += int64(k)
		if n > limit {
			return nil, tooLargeErr(limit, n)
		}
		sc.feed(rb.buf[:k])
		rb.filled(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, transportErr("reading answer: %w", err)
		}
	}
	if got := sc.idOf(); got != nil && !sc.isNullID() && !idIs(got, id) {
		return nil, protocolErr("the answer's id is %s, the request's %d: an answer to another request", excerpt(got), id)
	}
	if sc.nullIDResult() {
		return nil, errNullIDResult()
	}
	return scannedAnswer(spec.into, sc, spec, n), nil
}

// readSSERead skips notifications until the event answering id, which is
// classified as its data arrives; every event is scanned (which one
// answers is known only at its end) and every byte read counts as wire
// bytes. A request the server sends meanwhile gets its reply through
// reply (nil: none). An event whose data passes limit ends the read.
func readSSERead(body io.Reader, id, limit int64, spec *readSpec, reply func([]byte), rb *readBuf) (*Response, error) {
	events := rb.events(body)
	sc := &rb.sc
	var wire, data int64
	sink := func(b []byte) bool {
		data += int64(len(b))
		if data > limit {
			return false
		}
		sc.feed(b)
		return true
	}
	for {
		sc.reset(true, spec.uri, spec.digest)
		data = 0
		ev, err := events.next(sink)
		wire += ev.wire
		switch {
		case errors.Is(err, errSinkStopped):
			return nil, tooLargeErr(limit, wire)
		case err == io.EOF:
			return nil, transportErr("SSE stream ended before the answer: %w", io.ErrUnexpectedEOF)
		case err != nil:
			return nil, transportErr("SSE stream ended before the answer: %w", err)
		}
		if ev.data == 0 || (ev.name != "" && ev.name != "message") {
			continue // priming events and other event types
		}
		if sc.nullIDResult() {
			return nil, errNullIDResult()
		}
		if sc.isResponse() && (sc.isNullID() || idIs(sc.idOf(), id)) {
			return scannedAnswer(spec.into, sc, spec, wire), nil
		}
		if method := sc.methodOf(); method != "" && sc.idOf() != nil && reply != nil {
			reply(replyToServer(sc.idOf(), method))
		}
	}
}
