package simserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Changing resources. Every sim: URI has a revision, 0 until it first
// changes; a change bumps it, so that the document's content (and so its
// digest) is another, of the same size and type, and each of its entries
// carries _meta[MetaRevision] = the revision, visible to any client. Then
// every subscriber of the URI, in both eras, is handed a
// notifications/resources/updated. Changes come from the touch tool
// (tools/call), from POST ChangesPath?uri=URI (Changes), and on their own
// at Options.Changes per second. Each change has a server-wide sequence
// number and a server time, in the touch result and in every notification
// it causes (_meta[MetaChangeSeq], _meta[MetaChangedAt]), so that a client
// can time a change to each notification's arrival.

// MetaRevision is the _meta key of a changed document's entries: its
// revision (absent while it is 0, so an unchanged document reads exactly
// as it always did).
const MetaRevision = "io.github.readbench/revision"

// MetaChangeSeq and MetaChangedAt are the _meta keys of a
// notifications/resources/updated the simulated server sends: the change's
// sequence number and its server time (RFC 3339, nanoseconds).
const (
	MetaChangeSeq = "io.github.readbench/changeSeq"
	MetaChangedAt = "io.github.readbench/changedAt"
)

// TouchTool is the tool that changes a resource: tools/call with
// arguments {uri} answers once the change's notifications are queued for
// every subscriber's stream, with structuredContent {uri, revision, seq,
// changed_at, notified}.
const TouchTool = "touch"

// ChangesPath is where readbench serve mounts Changes.
const ChangesPath = "/changes"

// Change is what a change did.
type Change struct {
	URI       string    `json:"uri"`
	Revision  uint64    `json:"revision"`   // the document's revision now
	Seq       uint64    `json:"seq"`        // the change's server-wide sequence number, from 1
	ChangedAt time.Time `json:"changed_at"` // server time of the change
	Notified  int       `json:"notified"`   // subscribers it was handed to
}

// change is what a note carries of its change.
type change struct {
	seq uint64
	at  time.Time
}

// revisions are the documents' revisions. any spares the read path a
// lock while nothing ever changed (the usual load test).
type revisions struct {
	any  atomic.Bool
	mu   sync.RWMutex // guards revs and seq; held across a change's notes, so notes follow seq order
	revs map[string]uint64
	seq  uint64
}

// of is uri's revision.
func (r *revisions) of(uri string) uint64 {
	if !r.any.Load() {
		return 0
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.revs[uri]
}

// revised is spec at its current revision: spec itself while it never
// changed, else a copy whose content and cache key follow the revision.
func (s *Server) revised(spec *Spec) *Spec {
	rev := s.revs.of(spec.URI)
	if rev == 0 {
		return spec
	}
	cp := *spec
	cp.rev = rev
	return &cp
}

// cacheKey is the answer cache's key of a spec's contents.
func (sp *Spec) cacheKey() string {
	if sp.rev == 0 {
		return sp.URI
	}
	return sp.URI + "\x00rev" + strconv.FormatUint(sp.rev, 10)
}

// Touch changes the resource uri (a sim: URI) and hands the change's
// notification to every subscriber of it before it returns. A URI that is
// not a sim: URI wraps ErrNotSim, a malformed one ErrBadURI.
func (s *Server) Touch(uri string) (Change, error) {
	if _, err := s.specs.parse(uri); err != nil {
		return Change{}, fmt.Errorf("touch %q: %w", uri, err)
	}
	r := &s.revs
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.revs == nil {
		r.revs = map[string]uint64{}
	}
	r.revs[uri]++
	r.seq++
	r.any.Store(true)
	ch := change{seq: r.seq, at: time.Now()}
	s.stats.changes.Add(1)
	n := s.hub.notify(uri, ch)
	return Change{URI: uri, Revision: r.revs[uri], Seq: ch.seq, ChangedAt: ch.at, Notified: n}, nil
}

// touchTool answers tools/call of TouchTool.
func (s *Server) touchTool(c *call) answer {
	var args struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(c.p.Arguments, &args); err != nil || args.URI == "" {
		return s.fail(c.id, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: touch wants {uri}", nil))
	}
	ch, err := s.Touch(args.URI)
	switch {
	case errors.Is(err, ErrNotSim):
		return s.toolError(c, "not_found", "no such resource: "+args.URI)
	case err != nil:
		return s.toolError(c, "invalid_uri", err.Error())
	}
	body := mustMarshal(map[string]any{
		"content": []map[string]string{{"type": "text", "text": fmt.Sprintf("%s is at revision %d (change %d, %d subscribers notified)",
			ch.URI, ch.Revision, ch.Seq, ch.Notified)}},
		"structuredContent": ch,
		"isError":           false,
	})
	return s.result(c, body)
}

// Changes is the HTTP way to change a resource: POST ?uri=URI answers 200
// with the Change as JSON once its notifications are queued; 400 without
// a uri or for a malformed one, 404 for a URI that is not a sim: URI.
// readbench serve mounts it at ChangesPath, beside /mcp.
func (s *Server) Changes() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r) {
			http.Error(w, "Forbidden: Host is not a loopback name", http.StatusForbidden)
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "Method Not Allowed: POST "+ChangesPath+"?uri=URI", http.StatusMethodNotAllowed)
			return
		}
		uri := r.URL.Query().Get("uri")
		if uri == "" {
			http.Error(w, "missing ?uri=URI", http.StatusBadRequest)
			return
		}
		ch, err := s.Touch(uri)
		switch {
		case errors.Is(err, ErrNotSim):
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		b := mustMarshal(ch)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(b, '\n'))
	})
}

// runChanges changes, Options.Changes times a second until ctx ends, the
// URIs someone follows, round-robin in sorted order (a URI nobody follows
// is never changed: its change would reach no one). It catches up after
// a late tick rather than drift, as a pacer does.
func (s *Server) runChanges(ctx context.Context, perSecond float64) {
	every := max(time.Duration(float64(time.Second)/perSecond), time.Millisecond)
	tick := time.NewTicker(every)
	defer tick.Stop()
	start, done, next := time.Now(), int64(0), 0
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			due := int64(now.Sub(start).Seconds()*perSecond) - done
			uris := s.hub.subscribedURIs()
			for ; due > 0; due-- {
				done++
				if len(uris) == 0 {
					continue
				}
				_, _ = s.Touch(uris[next%len(uris)]) // a followed URI parsed when it was subscribed
				next++
			}
		}
	}
}
