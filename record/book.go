package record

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// book is what the proxies share: the recording, the clock it counts
// from, the turns, and the reads waiting for their answers.
type book struct {
	out     *Writer
	started time.Time
	redact  bool
	turns   turns

	stop chan struct{} // ends the quiet settling (close)
	once sync.Once

	mu sync.Mutex
	// cancelled holds the reads a client cancelled with
	// notifications/cancelled (session id, request id), until they end.
	cancelled map[string]bool
}

// message is what the proxy reads of one JSON-RPC message a client sent.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		URI       string          `json:"uri"`
		RequestID json.RawMessage `json:"requestId"`
		Meta      struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

// pending is a read sent upstream, waiting for its answer.
type pending struct {
	sid, session string
	id           string // the request id's JSON, compacted
	idNum        float64
	hasID        bool // id is a number, idNum: the order the client sent its requests in
	uri          string
	modern       bool
	arrived      time.Time
	done         bool
	ended        time.Time // when done
	line         Read      // its line, written once its turn is settled
}

// messages splits a body of JSON-RPC into its messages (one, or a batch);
// nil when it is neither.
func messages(body []byte) []message {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] == '[' {
		var batch []message
		if json.Unmarshal(body, &batch) != nil {
			return nil
		}
		return batch
	}
	var m message
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return []message{m}
}

// idKey is a JSON-RPC id as the map key it is matched by.
func idKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// requests books what a client sent on session sid: every method is
// counted, every resources/read request starts waiting for its answer
// (returned), a cancellation marks the read it names. headerModern is
// the era the transport's headers say.
func (b *book) requests(msgs []message, sid string, headerModern bool, now time.Time) []*pending {
	var reads []*pending
	for _, m := range msgs {
		if m.Method == "" {
			continue // a client's answer to a server's request
		}
		b.out.Count(m.Method)
		switch {
		case m.Method == protocol.MethodResourcesRead && len(m.ID) > 0 && m.Params.URI != "":
			p := &pending{sid: sid, id: idKey(m.ID), uri: m.Params.URI, arrived: now,
				modern: headerModern || protocol.IsModern(m.Params.Meta.Version)}
			if n, err := strconv.ParseFloat(p.id, 64); err == nil {
				p.idNum, p.hasID = n, true
			}
			b.turns.begin(sid, p, now)
			reads = append(reads, p)
		case m.Method == protocol.MethodCancelled && len(m.Params.RequestID) > 0:
			b.mu.Lock()
			if b.cancelled == nil {
				b.cancelled = map[string]bool{}
			}
			b.cancelled[sid+"\x00"+idKey(m.Params.RequestID)] = true
			b.mu.Unlock()
		}
	}
	return reads
}

// response matches a message the server sent to the reads waiting on
// it, and records the one it answers.
func (b *book) response(reads []*pending, msg []byte, framing int64, now time.Time) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return
	}
	id := idKey(m.ID)
	for _, p := range reads {
		if !p.done && p.id == id {
			a := client.ClassifyMessage(msg, p.uri, p.modern)
			a.WireBytes += framing
			b.finish(p, a, now)
			return
		}
	}
}

// unanswered ends the reads whose answer never came: cancelled when the
// client cancelled them or went away (gone), else outcome (transport, or
// unauthorized for a 401/403).
func (b *book) unanswered(reads []*pending, gone bool, outcome stats.Outcome, now time.Time) {
	for _, p := range reads {
		if p.done {
			continue
		}
		b.finish(p, client.Answer{Outcome: b.cutOutcome(p, gone, outcome)}, now)
	}
}

// unansweredAfter is unanswered for reads whose answer was cut after
// passed bytes had reached the client: a lone read left is recorded with
// them as its wire bytes (the true cost of the answer the client gave up
// on); several cannot be told apart, and are recorded without.
func (b *book) unansweredAfter(reads []*pending, gone bool, outcome stats.Outcome, passed int64, now time.Time) {
	var left []*pending
	for _, p := range reads {
		if !p.done {
			left = append(left, p)
		}
	}
	if len(left) != 1 || passed == 0 {
		b.unanswered(left, gone, outcome, now)
		return
	}
	p := left[0]
	b.finish(p, client.Answer{Outcome: b.cutOutcome(p, gone, outcome), ByteCounts: stats.ByteCounts{WireBytes: passed}}, now)
}

// cutOutcome is the outcome of a read whose answer never came whole:
// cancelled when its client cancelled it or went away (gone), else
// outcome.
func (b *book) cutOutcome(p *pending, gone bool, outcome stats.Outcome) stats.Outcome {
	b.mu.Lock()
	c := b.cancelled[p.sid+"\x00"+p.id]
	b.mu.Unlock()
	if c || gone {
		return stats.Cancelled
	}
	return outcome
}

// finish ends a read (done: its answer is no longer waited for); its
// line is written once its turn is settled.
func (b *book) finish(p *pending, a client.Answer, now time.Time) {
	b.mu.Lock()
	delete(b.cancelled, p.sid+"\x00"+p.id)
	b.mu.Unlock()
	uri := MaskURI(p.uri)
	if b.redact {
		uri = RedactURI(p.uri)
	}
	rd := Read{
		AtMs: ms(p.arrived.Sub(b.started)), Session: p.session, URI: uri,
		Outcome: a.Outcome.String(), Bytes: a.DiskBytes, WireBytes: a.WireBytes, MIME: a.MIME,
		Entries: a.Entries, Code: a.Code, LatencyMs: ms(now.Sub(p.arrived)),
	}
	if a.Outcome == stats.OK {
		rd.Digest = a.Digest
	}
	b.turns.end(p, rd, now)
}

// settling writes the turns of quiet sessions until close.
func (b *book) settling() {
	tick := time.NewTicker(settleQuiet / 8)
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case now := <-tick.C:
			b.turns.settleQuiet(now)
		}
	}
}

// close writes every turn left and the recording's last line (the
// methods counted). The caller stops serving first.
func (b *book) close(ended time.Time) error {
	b.once.Do(func() { close(b.stop) })
	b.turns.flush()
	return b.out.Close(ended)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// answerOfSize is the answer recorded for a message too big to classify.
func answerOfSize(wire int64) client.Answer {
	return client.Answer{Outcome: stats.Protocol, ByteCounts: stats.ByteCounts{WireBytes: wire}}
}
