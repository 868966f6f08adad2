package replay

import (
	"fmt"
	"slices"
	"sync"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/stats"
)

// Diff compares a replay's answers with the recorded ones, URI by URI:
// what a read of a URI answered when recorded (its first ok answer's
// size and digest, else its first outcome) against every replayed read
// of it. A read the recording never saw answered (cancelled, transport)
// is not compared: there is nothing to compare it with. Safe for
// concurrent use: Told is the driver's Schedule.Told.
type Diff struct {
	want map[string]record.Read

	mu       sync.Mutex
	compared int
	byURI    map[string]*Changed
}

// Changed is one URI whose replayed answers differ from the recorded one.
type Changed struct {
	URI      string
	Recorded string // "ok 1024 B sha256:…", "not_found"
	Replayed string // the first differing answer, the same way
	Reads    int    // replayed reads of it that differed
}

// NewDiff prepares the comparison with rec.
func NewDiff(rec *record.Recording) *Diff {
	d := &Diff{want: map[string]record.Read{}, byURI: map[string]*Changed{}}
	for _, rd := range rec.Reads {
		if rd.Outcome == stats.Cancelled.String() || rd.Outcome == stats.Transport.String() || rd.Outcome == stats.Timeout.String() {
			continue
		}
		if prev, ok := d.want[rd.URI]; !ok || (prev.Outcome != stats.OK.String() && rd.Outcome == stats.OK.String()) {
			d.want[rd.URI] = rd
		}
	}
	return d
}

// Told compares one replayed read (see driver.Schedule.Told). The
// client's answer decides the outcome compared (a class's expect does
// not make a changed answer the same); a read without one is compared
// by the run's outcome, but never counted when it was only cut or
// timed out (the replay, not the server, ended it).
func (d *Diff) Told(uri string, o stats.Outcome, a *client.Answer) {
	want, ok := d.want[uri]
	if !ok || o == stats.Cancelled || o == stats.Timeout || o == stats.Dropped {
		return
	}
	got := record.Read{Outcome: o.String()}
	if a != nil {
		got = record.Read{Outcome: a.Outcome.String(), Bytes: a.DiskBytes, Digest: a.Digest}
	}
	same := got.Outcome == want.Outcome
	if same && a != nil && want.Outcome == stats.OK.String() {
		same = got.Bytes == want.Bytes && (got.Digest == "" || want.Digest == "" || got.Digest == want.Digest)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.compared++
	if same {
		return
	}
	c := d.byURI[uri]
	if c == nil {
		c = &Changed{URI: uri, Recorded: answerText(want), Replayed: answerText(got)}
		d.byURI[uri] = c
	}
	c.Reads++
}

// answerText says what an answer was, briefly.
func answerText(rd record.Read) string {
	if rd.Outcome != stats.OK.String() {
		return rd.Outcome
	}
	s := fmt.Sprintf("ok %d B", rd.Bytes)
	if rd.Digest != "" {
		s += " " + shortDigest(rd.Digest)
	}
	return s
}

func shortDigest(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}

// DiffResult is what a Diff found.
type DiffResult struct {
	Compared int       // replayed reads compared with the recording
	Differed int       // of them, those whose answer differed
	Changed  []Changed // the URIs, by URI
}

// Result is what the Diff found so far.
func (d *Diff) Result() DiffResult {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := DiffResult{Compared: d.compared}
	for _, c := range d.byURI {
		r.Differed += c.Reads
		r.Changed = append(r.Changed, *c)
	}
	slices.SortFunc(r.Changed, func(a, b Changed) int {
		switch {
		case a.URI < b.URI:
			return -1
		case a.URI > b.URI:
			return 1
		}
		return 0
	})
	return r
}
