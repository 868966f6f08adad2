package simserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/readbench/readbench/protocol"
)

// read answers resources/read: parse the sim: URI, wait like a real backend
// (worker slot, delay, stall, server-wide hiccup), then answer the cached
// encoded contents, or the fault the URI asks for.
func (s *Server) read(ctx, base context.Context, c *call) answer {
	s.stats.reads.Add(1)
	s.stats.inFlight.Add(1)
	defer s.stats.inFlight.Add(-1)
	s.observeTrace(c)

	if a, ok := s.fixtureRead(c); ok { // the conformance suite's test: resources (fixtures.go)
		return a
	}
	c.prepare(&s.specs)
	spec := c.spec
	if c.specErr != nil {
		a := s.fail(c.id, c.specErr)
		a.read = true
		return a
	}
	release, late, ok := s.admit(ctx, base, spec)
	if !ok {
		return answer{}
	}
	defer release()
	spec = s.revised(spec) // after the wait: a change made meanwhile is read

	var a answer
	switch {
	case spec.ErrorCode != 0:
		a = s.fail(c.id, simulatedError(spec))
	case c.modern && spec.InputRequired && c.p.RequestState == "":
		a = s.inputRequired(c, spec)
	default:
		contents := s.cache.get(spec.cacheKey(), func() []byte { return s.gen.encodeContents(spec) })
		head := c
		if spec.Wire == WireWrongID {
			head = &call{id: wrongID(c.id), modern: c.modern}
		}
		a = answer{parts: [][]byte{s.readHead(head, spec), contents, []byte("}}")}, wire: spec.Wire.onRead()}
		if n := int64(a.size()); s.opts.MaxMessage > 0 && n > s.opts.MaxMessage {
			a = s.fail(c.id, overCap(n, s.opts.MaxMessage))
		}
	}
	a.read, a.late, a.sse, a.honours = true, late, spec.SSE, spec.HonorCancel
	return a
}

// resolve parses the uri of a read: a URI of another scheme is the era's
// not found, a bad sim: URI invalid params.
func resolve(c *call, specs *specCache) (*Spec, *protocol.Error) {
	if c.p.URI == nil {
		return nil, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: missing uri", nil)
	}
	uri := *c.p.URI
	spec, err := specs.parse(uri)
	switch {
	case errors.Is(err, ErrNotSim):
		return nil, notFound(c.modern, uri)
	case err != nil:
		return nil, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: "+err.Error(), map[string]string{"uri": uri})
	}
	return spec, nil
}

// admit makes a read wait as a real server would: for a worker slot when
// Options.Workers bounds them, for its sampled delay and stall= option, and
// through any server-wide stall. Every wait ends early when the request is
// cancelled, unless the URI says honor_cancel=false (then only the
// connection's end stops it). ok is false when nothing must be answered;
// late is true when the answer goes out although the request was cancelled.
// The caller must call release when ok.
func (s *Server) admit(ctx, base context.Context, spec *Spec) (release func(), late, ok bool) {
	work := ctx
	if !spec.HonorCancel {
		work = base
	}
	release = func() {}
	if s.workers != nil {
		select {
		case s.workers <- struct{}{}:
			release = func() { <-s.workers }
		case <-work.Done():
			s.stats.cancelled.Add(1)
			return nil, false, false
		case <-s.crashed:
			return nil, false, false
		}
	}
	if !s.sleep(work, spec.Stall+s.sampleDelay(spec)) || !s.sleep(work, s.stallLeft(time.Now())) {
		release()
		if ctx.Err() != nil {
			s.stats.cancelled.Add(1)
		}
		return nil, false, false
	}
	if ctx.Err() != nil {
		s.stats.cancelled.Add(1)
		if spec.HonorCancel {
			release()
			return nil, false, false
		}
		late = true
	}
	return release, late, true
}

// sampleDelay draws this read's delay from the URI's distribution.
func (s *Server) sampleDelay(spec *Spec) time.Duration {
	if !spec.HasDelay {
		return 0
	}
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	ns := spec.Delay.Sample(r)
	if s.opts.DelayScale > 0 {
		ns *= s.opts.DelayScale
	}
	if math.IsNaN(ns) || ns <= 0 {
		return 0
	}
	return time.Duration(min(ns, float64(time.Hour)))
}

// readHead is the response up to the contents array: the JSON-RPC envelope
// and, in the 2026-07-28 era, _meta, resultType and the cache hints.
func (s *Server) readHead(c *call, spec *Spec) []byte {
	h := make([]byte, 0, 192+len(s.meta))
	h = append(h, `{"jsonrpc":"2.0","id":`...)
	h = append(h, c.id...)
	h = append(h, `,"result":{`...)
	if c.modern {
		h = append(h, s.meta...)
		h = append(h, `,"resultType":"complete","ttlMs":`...)
		h = strconv.AppendInt(h, int64(spec.TTLMs), 10)
		h = append(h, `,"cacheScope":`...)
		h = strconv.AppendQuote(h, spec.Scope)
		h = append(h, ',')
	}
	return append(h, `"contents":`...)
}

// inputRequired answers a 2026-07-28 read with resultType input_required:
// an elicitation the client must fulfil before retrying with requestState.
// The retry (requestState set) is answered normally.
func (s *Server) inputRequired(c *call, spec *Spec) answer {
	body := mustMarshal(map[string]any{
		"inputRequests": map[string]any{
			"confirm": map[string]any{
				"method": "elicitation/create",
				"params": map[string]any{
					"mode":    "form",
					"message": "Confirm reading " + spec.URI,
					"requestedSchema": map[string]any{
						"type":       "object",
						"properties": map[string]any{"confirm": map[string]string{"type": "boolean"}},
						"required":   []string{"confirm"},
					},
				},
			},
		},
		"requestState": "sim-confirm-" + strconv.FormatUint(seedOf(spec.URI), 16),
	})
	return answer{parts: [][]byte{protocol.AppendResult(nil, c.id, s.modernResult(body, protocol.ResultInputRequired))}}
}

// overCap is the error of an answer over Options.MaxMessage: -32603, as an
// SDK with a message limit fails, naming the cap and the size.
func overCap(size, limit int64) *protocol.Error {
	return protocol.NewError(protocol.CodeInternal,
		fmt.Sprintf("message of %d bytes exceeds the server's maximum message size of %d bytes", size, limit),
		map[string]int64{"size": size, "max_message": limit})
}
