package h2

import (
	"io"
	"time"
)

// How streams and connections end: a response body gives its stream
// back, and the pool closes its connections.

// body is a response's body that gives its stream back to the pool once,
// at its end or its Close, whichever comes first.
type body struct {
	rc   io.ReadCloser
	done func()
	once bool
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil {
		b.end()
	}
	return n, err
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.end()
	return err
}

func (b *body) end() {
	if !b.once {
		b.once = true
		b.done()
	}
}

// CloseIdleConnections closes the connections with no stream in flight,
// as net/http's transports do at a session's end.
func (p *Pool) CloseIdleConnections() {
	p.mu.Lock()
	defer p.mu.Unlock()
	live := p.conns[:0]
	for _, c := range p.conns {
		if c.inFlight > 0 {
			live = append(live, c)
			continue
		}
		p.quietLocked(c)
	}
	clear(p.conns[len(live):])
	p.conns = live
}

// Close closes every connection; requests after it fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, c := range p.conns {
		p.quietLocked(c)
	}
	clear(p.conns)
	p.conns = nil
	p.signalLocked()
	return nil
}

// quietLocked closes c at the pool's end: no churn, unless the server
// had ended it already.
func (p *Pool) quietLocked(c *conn) {
	if c.fc.byServer() {
		p.endedLocked(c)
		return
	}
	if c.fc.ended.CompareAndSwap(false, true) {
		p.count.open.Add(-1)
		_ = c.cc.Close()
	}
}

// Settle waits, at most limit, until no stream is active on any
// connection: a read cut by its context returns at once, and the HTTP/2
// library writes its RST_STREAM just after, so a count taken at a run's
// end without it could miss the resets of the last cuts.
func (p *Pool) Settle(limit time.Duration) {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if p.activeStreams() == 0 {
			return
		}
	}
}

// activeStreams is how many streams the HTTP/2 library has open, over the
// pool's connections.
func (p *Pool) activeStreams() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.conns {
		n += c.cc.State().StreamsActive
	}
	return n
}
