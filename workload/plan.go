package workload

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strconv"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// Attachment is one read of a turn: the class it was drawn from, the URI to
// read and the outcome the class expects.
type Attachment struct {
	Class  int    // index into Workload.Mix
	URI    string // the resource to read
	Expect string // the class's Expect: "" (= ok) or an outcome name
}

// Sampling is the deterministic sampling plan of a workload: which attachments
// each turn reads. Turn i depends only on the seed and i, never on what was
// generated before, so the scheduler can build turns from several goroutines,
// shards of a distributed run (--segment k/n) can each build their own
// share, and two runs with the same seed read exactly the same URIs: the
// precondition for comparing two server versions. A Sampling is immutable and
// safe for concurrent use.
type Sampling struct {
	seed    uint64  // the workload's seed, mixed
	fixed   int     // attachments per turn when not weighted
	counts  []int   // weighted: the counts, ascending ...
	countUp []int64 // ... and their cumulative weights
	classUp []float64
	classes []planClass
}

// planClass is a class compiled for drawing.
type planClass struct {
	name     string
	expect   string
	uri      string
	uris     []string
	tmpl     *uriTemplate
	vars     [][]string // values of tmpl.names, in order
	synth    bool       // mime+size: a sim:/// URI for the embedded target
	simPath  string     // "sim:///NAME-", escaped
	simQuery string     // "delay=...&entries=N&mime=...&size=", escaped
	size     units.Dist
	sizeOnly bool // the size is fixed: no draw
}

// SamplingOptions say what the target does with mime+size classes, which
// only it can answer: whether it is readbench's simulated server, which
// synthesizes them, and which URIs discovery found for the others.
type SamplingOptions struct {
	// Sim: the target is the simulated server (any transport), so the
	// classes it can synthesize (Class.Synthesizable) become sim: URIs.
	Sim bool
	// Resolved holds, per class index, the URIs discovery matched (see
	// Resolve). The class draws one uniformly per read.
	Resolved map[int][]string
}

// NewSampling compiles w into a Sampling. It validates w, and fails with an *Error
// naming the class when a class cannot be planned without its target:
// mime+size classes are synthesized by the embedded target only, and are
// resolved from a real target's listing by discovery (NewPlanWith, which
// driver.Run calls once it is connected).
func NewSampling(w *Workload) (*Sampling, error) {
	return NewSamplingWith(w, SamplingOptions{Sim: w.Target.Kind == targets.Embedded || w.Target.Kind == ""})
}

// NewSimPlan is NewPlan for a target known to be readbench's simulated
// server whatever its transport (for example `readbench serve --listen`
// behind an http:// target): mime+size classes are synthesized as sim:
// URIs, exactly as for the embedded target.
func NewSimPlan(w *Workload) (*Sampling, error) {
	return NewSamplingWith(w, SamplingOptions{Sim: true})
}

// NewSamplingWith compiles w into a Sampling for a target described by o. Every
// class that needs discovery (Workload.DiscoveryClasses) must be in
// o.Resolved with at least one URI, or the plan fails with an *Error
// naming the class.
func NewSamplingWith(w *Workload, o SamplingOptions) (*Sampling, error) {
	if err := w.Validate(); err != nil {
		var e *Error
		if errors.As(err, &e) {
			w.locate(e)
		}
		return nil, err
	}
	p := &Sampling{seed: splitmix64(uint64(w.Seed)), fixed: w.Turn.Attachments.Fixed}
	if wa := w.Turn.Attachments.Weighted; len(wa) > 0 {
		p.fixed = 0
		var sum int64
		for _, n := range slices.Sorted(maps.Keys(wa)) {
			sum += int64(wa[n])
			p.counts = append(p.counts, n)
			p.countUp = append(p.countUp, sum)
		}
	}
	// Weights are scaled by the largest so that their sum stays finite.
	var sum, scale float64
	for _, c := range w.Mix {
		scale = max(scale, c.Weight)
	}
	for i, c := range w.Mix {
		sum += c.Weight / scale
		p.classUp = append(p.classUp, sum)
		// Copies, so that changing w afterwards cannot change the plan.
		pc := planClass{name: c.Name, expect: c.Expect, uri: c.URI, uris: slices.Clone(c.URIs)}
		switch {
		case c.Template != "":
			pc.tmpl, _ = parseTemplate(c.Template) // checked by Validate
			for _, name := range pc.tmpl.names {
				pc.vars = append(pc.vars, slices.Clone(c.Vars[name]))
			}
		case c.MIME != "" && len(o.Resolved[i]) > 0:
			pc.uris = slices.Clone(o.Resolved[i])
		case c.Discovered(o.Sim):
			e := errorf(IndexKey("mix", i), "class %q (mime %s, size %s) is resolved from the target's listing (resources/list), which readbench run does once connected; to plan without a target, name the resources with uri, uris or template", c.Name, c.MIME, c.SizeText())
			w.locate(e)
			return nil, e
		case c.Size != nil:
			pc.synth, pc.size = true, *c.Size
			pc.sizeOnly = c.Size.Kind == units.DistFixed || c.Size.Kind == ""
			pc.simPath, pc.simQuery = simParts(c)
		}
		p.classes = append(p.classes, pc)
	}
	return p, nil
}

// Turn returns the attachments of turn i. It is a pure function of the
// workload's seed and i: a per-turn PCG generator is derived from both, so
// turns can be generated in any order, concurrently, on any machine.
func (p *Sampling) Turn(i uint64) []Attachment { return p.AppendTurn(nil, i) }

// AppendTurn appends the attachments of turn i to dst: Turn into a
// caller's buffer (a load run's turn of one read keeps it on its stack,
// and its generator is on the stack too: no allocation per turn).
func (p *Sampling) AppendTurn(dst []Attachment, i uint64) []Attachment {
	var src rand.PCG
	src.Seed(p.seed, splitmix64(i^p.seed))
	r := rand.New(&src)
	n := p.fixed
	if len(p.counts) > 0 {
		n = p.counts[searchInts(p.countUp, r.Int64N(p.countUp[len(p.countUp)-1]))]
	}
	for slot := range n {
		ci := p.drawClass(r)
		c := &p.classes[ci]
		dst = append(dst, Attachment{Class: ci, URI: c.draw(r, i, slot), Expect: c.expect})
	}
	return dst
}

// drawClass picks a class index by weight.
func (p *Sampling) drawClass(r *rand.Rand) int {
	if len(p.classUp) == 1 {
		return 0
	}
	u := r.Float64() * p.classUp[len(p.classUp)-1]
	i := sort.Search(len(p.classUp), func(j int) bool { return p.classUp[j] > u })
	return min(i, len(p.classUp)-1)
}

// searchInts returns the first index whose cumulative weight exceeds u.
func searchInts(up []int64, u int64) int {
	return sort.Search(len(up), func(j int) bool { return up[j] > u })
}

// draw returns one URI of the class for slot of turn i.
func (c *planClass) draw(r *rand.Rand, turn uint64, slot int) string {
	switch {
	case c.uris != nil:
		return c.uris[r.IntN(len(c.uris))]
	case c.tmpl != nil:
		vals := make([]string, len(c.vars))
		for k, vs := range c.vars {
			vals[k] = vs[r.IntN(len(vs))]
		}
		return c.tmpl.expand(vals)
	case c.synth:
		return c.simURI(r, turn, slot)
	}
	return c.uri
}

// simParts prepares the constant parts of a class's sim URIs (see simURI):
// the scheme and escaped name, and the query with every key but size, in
// the order url.Values.Encode writes them (sorted), size last.
func simParts(c Class) (path, query string) {
	q := url.Values{}
	q.Set("mime", c.MIME)
	if c.Delay != nil {
		q.Set("delay", c.Delay.String())
	}
	if c.Entries > 0 {
		q.Set("entries", strconv.Itoa(c.Entries))
	}
	u := url.URL{Scheme: "sim", Path: "/" + c.Name + "-"}
	return u.String(), q.Encode() + "&size="
}

// simURI builds the URI by which the embedded target's simulated server
// synthesizes a resource:
//
//	sim:///NAME?delay=lognormal%2812ms%2C40ms%29&entries=3&mime=image%2Fpng&size=1834208
//
// The size is sampled here (a whole number of bytes), so the plan fixes what
// is read; the delay stays a distribution (its canonical text), which the
// server samples on each read. NAME is the class name, the turn and the slot,
// so that no two reads share a URI. It is what url.URL.String gives for
// those parts, built from prepared pieces because it runs for every read.
func (c *planClass) simURI(r *rand.Rand, turn uint64, slot int) string {
	size := c.size.A
	if !c.sizeOnly {
		size = math.Min(math.Round(c.size.Sample(r)), units.MaxDistValue)
	}
	b := make([]byte, 0, len(c.simPath)+len(c.simQuery)+48)
	b = append(b, c.simPath...)
	b = strconv.AppendUint(b, turn, 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(slot), 10)
	b = append(b, '?')
	b = append(b, c.simQuery...)
	b = strconv.AppendInt(b, int64(size), 10)
	return string(b)
}

// splitmix64 is the SplitMix64 finalizer: it spreads nearby inputs (seeds
// 1, 2, 3; turns i and i+1) over the whole 64-bit space before they seed a
// PCG, whose nearby seeds would otherwise give related streams.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
