package driver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
)

// Discovery asks a target what it has: resources/list (every page) and
// resources/templates/list, and, for resources the listing gives no size
// (or type) for, a bounded sample of reads. `readbench init` turns what it
// learns into a starter workload; Run uses it to resolve mime+size classes
// against a real server (workload.Resolve).

// Defaults of discovery. Pages are bounded so that a server whose cursors
// never end cannot keep a run from starting; sampled reads, so that
// learning the sizes a listing leaves out (enough reads to see a type's
// spread) stays a moment before the run.
const (
	DefaultMaxPages      = 1000             // per list method
	DefaultSamplePerType = 20               // reads per MIME type
	DefaultSampleTimeout = 10 * time.Second // per sampled read
	sampleWorkers        = 4                // sampled reads in flight at once
	pageTimeout          = 30 * time.Second // per list request
)

// DiscoverOptions say how to reach a target and how much to learn of it.
type DiscoverOptions struct {
	Target          targets.Target
	Protocol        string                // "auto" (or "") or a version to force
	Headers         map[string]string     // as in a workload: ${VAR} is expanded, values are never kept
	Auth            auth.Tokens           // an OAuth-protected target's tokens (nil: none)
	EmbeddedCommand []string              // starts the embedded target (see Options.EmbeddedCommand)
	Stderr          io.Writer             // stdio servers' stderr; nil keeps only a tail
	Client          client.Implementation // clientInfo sent to the server
	Aim             targets.Aim           // hosts besides loopback the target may be (see targets.Aim)
	// HandshakeTimeout bounds opening the session (0: the client's default).
	HandshakeTimeout time.Duration
	// Setup, when set, is told each step of connecting and listing (see
	// SetupStep), one call at a time.
	Setup func(SetupStep)

	MaxPages      int                    // per list method; 0: DefaultMaxPages
	SamplePerType int                    // 0: DefaultSamplePerType; negative: read nothing
	SampleTypes   func(mime string) bool // which listed types to sample ("" = none given); nil: all
	SampleTimeout time.Duration          // per sampled read; 0: DefaultSampleTimeout
	// VerifyPerType is how many resources of each MIME type whose listing
	// gives a size are read to see that they have it (0: none). A size the
	// read contradicts is replaced by the bytes read and warned of: a
	// listed size is the server's word, which a read can prove wrong
	// (mcp-framework lists a class's declared size, whatever it reads).
	VerifyPerType int
}

// Catalog is what discovery learned of a target.
type Catalog struct {
	Server          client.Implementation
	ProtocolVersion string
	Resources       []workload.Resource // listing order, each URI once
	Templates       []Template
	Pages           int      // resources/list pages read
	Sampled         int      // reads that learned a size
	Contradicted    int      // listed sizes a read contradicted (replaced by the bytes read)
	SampleFailed    int      // sampled reads that failed (the size stays unknown)
	Warnings        []string // what was cut short or refused, for the user
}

// Template is one entry of resources/templates/list.
type Template struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	MIME        string `json:"mimeType,omitempty"`
	Description string `json:"description,omitempty"`
}

// Discover opens one session to the target, the way a run does, lists it
// and closes the session.
func Discover(ctx context.Context, o DiscoverOptions) (*Catalog, error) {
	tell := setupOf(o.Setup)
	s, _, err := client.Connect(ctx, client.Dial{
		Target: o.Target, Protocol: o.Protocol, Headers: o.Headers, Auth: o.Auth,
		Embedded: o.EmbeddedCommand, Stderr: o.Stderr, Client: o.Client, Aim: o.Aim,
		HandshakeTimeout: o.HandshakeTimeout,
		Step:             func(doing string) { tell.say(SetupStep{Stage: StageConnect, Doing: doing, Of: 1}) },
	})
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", o.Target.Redacted(), err)
	}
	defer func() { _ = s.Close() }()
	return catalog(ctx, s, o, tell)
}

// catalog lists the session's target and samples the sizes it leaves out.
// Each step is told to tell (nil: silent).
func catalog(ctx context.Context, s *client.Session, o DiscoverOptions, tell *setupTell) (*Catalog, error) {
	maxPages := cmp.Or(max(o.MaxPages, 0), DefaultMaxPages)
	cat := &Catalog{Server: s.Server(), ProtocolVersion: s.ProtocolVersion()}
	if err := listResources(ctx, s, maxPages, cat, tell); err != nil {
		return nil, err
	}
	if err := listTemplates(ctx, s, maxPages, cat, tell); err != nil {
		return nil, err
	}
	sample(ctx, s, o, cat, tell)
	return cat, nil
}

// unimplemented reports a server that does not implement a method.
func unimplemented(err error) bool {
	var e *protocol.Error
	return errors.As(err, &e) && e.Code == protocol.CodeMethodNotFound
}

// listResources reads every page of resources/list into cat.
func listResources(ctx context.Context, s *client.Session, maxPages int, cat *Catalog, tell *setupTell) error {
	seen := map[string]bool{}
	pages := 0
	tell.say(SetupStep{Stage: StageDiscover, Doing: protocol.MethodResourcesList})
	l, err := s.Paginate(ctx, protocol.MethodResourcesList, maxPages, pageTimeout, func(raw json.RawMessage) (string, error) {
		pages++
		defer func() {
			tell.say(SetupStep{Stage: StageDiscover, Doing: protocol.MethodResourcesList, Done: pages, Listed: len(cat.Resources)})
		}()
		var page struct {
			Resources []struct {
				URI      string          `json:"uri"`
				MIMEType string          `json:"mimeType"`
				Size     json.RawMessage `json:"size"`
			} `json:"resources"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return "", err
		}
		for _, r := range page.Resources {
			if r.URI != "" && !seen[r.URI] {
				seen[r.URI] = true
				cat.Resources = append(cat.Resources, workload.Resource{URI: r.URI, MIME: r.MIMEType, Size: listedSize(r.Size)})
			}
		}
		return page.NextCursor, nil
	})
	cat.Pages = l.Pages
	warning := l.Warning(protocol.MethodResourcesList)
	if unimplemented(err) {
		warning, err = "the server does not implement resources/list: it lists no resources", nil
	}
	return cat.warn(warning, err)
}

// warn records a warning, unless err, which it returns.
func (c *Catalog) warn(warning string, err error) error {
	if err == nil && warning != "" {
		c.Warnings = append(c.Warnings, warning)
	}
	return err
}

// listedSize reads a listing's size: a whole number of bytes, or unknown
// when absent, null, negative, fractional or not a number at all (one odd
// entry must not make the whole page unreadable).
func listedSize(raw json.RawMessage) int64 {
	var f float64
	if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &f) != nil || f < 0 || f != math.Trunc(f) || f > math.MaxInt64/2 {
		return workload.UnknownSize
	}
	return int64(f)
}

// listTemplates reads every page of resources/templates/list into cat; a
// server without templates is common and not worth a warning.
func listTemplates(ctx context.Context, s *client.Session, maxPages int, cat *Catalog, tell *setupTell) error {
	tell.say(SetupStep{Stage: StageDiscover, Doing: protocol.MethodResourceTemplates})
	l, err := s.Paginate(ctx, protocol.MethodResourceTemplates, maxPages, pageTimeout, func(raw json.RawMessage) (string, error) {
		var page struct {
			ResourceTemplates []Template `json:"resourceTemplates"`
			NextCursor        string     `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return "", err
		}
		for _, t := range page.ResourceTemplates {
			if t.URITemplate != "" {
				cat.Templates = append(cat.Templates, t)
			}
		}
		return page.NextCursor, nil
	})
	if unimplemented(err) {
		return nil
	}
	return cat.warn(l.Warning(protocol.MethodResourceTemplates), err)
}

// sample reads up to SamplePerType resources of each MIME type whose
// listing gave no size (or no type), spread evenly over the listing, and
// records the decoded size (and the type the answer declares) of each read
// that succeeds; each worker writes only the resources it is handed. Reads
// that fail leave the size unknown and are counted.
func sample(ctx context.Context, s *client.Session, o DiscoverOptions, cat *Catalog, tell *setupTell) {
	perType, timeout := cmp.Or(o.SamplePerType, DefaultSamplePerType), cmp.Or(o.SampleTimeout, DefaultSampleTimeout)
	jobs := samplePicks(cat.Resources, perType, o.SampleTypes)
	verify := verifyPicks(cat.Resources, o.VerifyPerType)
	jobs = append(jobs, verify...)
	if len(jobs) == 0 {
		return
	}
	tell.say(SetupStep{Stage: StageDiscover, Doing: "sizes", Of: len(jobs)})
	var mu sync.Mutex
	var firstErr, firstContradiction string
	finished := 0
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(sampleWorkers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r := &cat.Resources[i]
				listed, verifying := r.Size, r.Size >= 0 && r.MIME != "" // samplePicks picks neither
				why := sampleOne(ctx, s, timeout, r)
				mu.Lock()
				switch {
				case verifying && why == "" && r.Size != listed:
					if cat.Contradicted++; firstContradiction == "" {
						firstContradiction = fmt.Sprintf("%s lists %d bytes, reads %d", r.URI, listed, r.Size)
					}
					cat.Sampled++
				case verifying: // the listed size stands: confirmed, or the read failed
					r.Size, r.Sampled = listed, false
				case why == "":
					cat.Sampled++
				default:
					if cat.SampleFailed++; firstErr == "" {
						firstErr = cat.Resources[i].URI + ": " + why
					}
				}
				finished++
				done := finished
				mu.Unlock()
				tell.say(SetupStep{Stage: StageDiscover, Doing: "sizes", Done: done, Of: len(jobs)})
			}
		}()
	}
	for _, i := range jobs {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if cat.Contradicted > 0 {
		_ = cat.warn(fmt.Sprintf("%d of %d listed sizes read were wrong (first: %s); the bytes read are used",
			cat.Contradicted, len(verify), firstContradiction), nil)
	}
	if cat.SampleFailed > 0 {
		_ = cat.warn(fmt.Sprintf("%d of %d reads made to learn sizes failed (first: %s); their sizes stay unknown",
			cat.SampleFailed, cat.SampleFailed+cat.Sampled, firstErr), nil)
	}
	for _, a := range workload.AnsweredByType(cat.Resources) {
		_ = cat.warn(a.Warning(), nil)
	}
}

// samplePicks chooses which resources to read: per listed MIME type, those
// without a size (or type), at most perType of them, evenly spaced so the
// sample spans the listing rather than its first page.
func samplePicks(res []workload.Resource, perType int, want func(string) bool) []int {
	return spreadPicks(res, perType, func(r workload.Resource) bool {
		return (r.Size < 0 || r.MIME == "") && (want == nil || want(workload.BaseMIME(r.MIME)))
	})
}

// verifyPicks chooses which listed sizes to check by reading: per MIME
// type, at most perType of the resources the listing gives a size and a
// type, evenly spaced over the listing.
func verifyPicks(res []workload.Resource, perType int) []int {
	if perType <= 0 {
		return nil
	}
	return spreadPicks(res, perType, func(r workload.Resource) bool { return r.Size >= 0 && r.MIME != "" })
}

// spreadPicks is, per MIME type in listing order, at most perType of the
// resources keep takes, evenly spaced over the listing.
func spreadPicks(res []workload.Resource, perType int, keep func(workload.Resource) bool) []int {
	byType := map[string][]int{}
	var order []string
	for i, r := range res {
		if !keep(r) {
			continue
		}
		m := workload.BaseMIME(r.MIME)
		if _, ok := byType[m]; !ok {
			order = append(order, m)
		}
		byType[m] = append(byType[m], i)
	}
	var picks []int
	for _, m := range order {
		idx := byType[m]
		n := min(perType, len(idx))
		for k := range n {
			picks = append(picks, idx[k*len(idx)/n])
		}
	}
	return picks
}

// sampleOne reads one resource and fills in its size and, when the
// listing had none, its type; it returns why it could not, or "".
func sampleOne(ctx context.Context, s *client.Session, timeout time.Duration, r *workload.Resource) string {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a, err := s.ReadDocument(rctx, r.URI, client.ReadSpec{})
	switch {
	case err != nil:
		return err.Error()
	case !a.Answered: // no answer: the exchange failed, in its own words
		return a.Detail
	case a.Outcome != stats.OK:
		why := a.Detail
		if a.Outcome == stats.Protocol {
			why = a.Reason
		}
		if why != "" {
			return a.Outcome.String() + ": " + why
		}
		return a.Outcome.String()
	}
	r.Size, r.Sampled, r.Answered = a.DiskBytes, true, a.MIME
	if r.MIME == "" {
		r.MIME = a.MIME
	}
	return ""
}

// buildPlan compiles the run's plan once the handshake has said what the
// server advertises: on one that serves any sim: URI (sim) the classes it
// can are synthesized, and the classes that need a listing are resolved
// from discovery on the first session before any turn starts (sampled
// reads are not measured). Discovery needs an MCP listing: a range+http
// target has none.
func (r *runner) buildPlan(ctx context.Context, sim bool) (*workload.Sampling, error) {
	opts := workload.SamplingOptions{Sim: sim}
	idx := r.w.DiscoveryClasses(sim)
	if len(idx) == 0 {
		return workload.NewSamplingWith(r.w, opts)
	}
	s, ok := r.conns[0].(*client.Session)
	if !ok {
		return nil, fmt.Errorf("discover %s: the target serves plain HTTP documents and lists none, so class %s cannot be resolved from a listing: give it a uri",
			r.w.Target.Redacted(), r.w.Mix[idx[0]].Name)
	}
	cat, err := catalog(ctx, s, DiscoverOptions{SampleTypes: r.sampleWanted(idx), SampleTimeout: max(r.w.Turn.ReadTimeout, DefaultSampleTimeout)}, r.setup)
	if err != nil {
		return nil, fmt.Errorf("discover %s: %w", r.w.Target.Redacted(), err)
	}
	if r.o.Logf != nil {
		for _, w := range cat.Warnings {
			r.o.Logf("discovery: %s", w)
		}
	}
	if opts.Resolved, err = workload.Resolve(r.w, idx, cat.Resources); err != nil {
		return nil, err
	}
	return workload.NewSamplingWith(r.w, opts)
}

// sampleWanted says which listed MIME types are worth reading to learn
// sizes: those a class with a bounded size matches, and resources of no
// listed type (the read tells it).
func (r *runner) sampleWanted(idx []int) func(string) bool {
	return func(mime string) bool {
		if mime == "" {
			return true
		}
		for _, i := range idx {
			c := &r.w.Mix[i]
			if c.SizeBounds() != workload.AnySize() && workload.MatchMIME(c.MIME, mime) {
				return true
			}
		}
		return false
	}
}
