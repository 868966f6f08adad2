package workload

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/readbench/readbench/internal/suggest"
	"github.com/readbench/readbench/units"
)

// Validate checks the invariants of a workload. The file's parser
// (workload/yamlfile) checks them too; the command line calls it again
// after applying overrides (--rate, --duration, --target...), which is why
// the checks live here and not in the parser. The error is an *Error whose
// Key is the key path of the offending field, or Errors when several
// fields break one (each field says its first); their Line and Col are 0,
// since an override has no place in the file (the parser fills them in
// for what the file says).
//
// The secrets a saved workload lacks (a masked target, a redacted header)
// are checked here only, not by Problems: a file that holds one (the
// starter init writes for a target with a password) runs once the command
// line gives it again (--target, --header), and is refused before.
func (w *Workload) Validate() error {
	problems := w.Problems()
	w.checkUnsaved(func(e *Error) {
		if e != nil {
			problems = append(problems, e)
		}
	})
	return JoinErrors(problems)
}

// Problems is every invariant w breaks, at most one per field, in the
// order of the reference: Validate's mistakes one by one, for the file's
// parser to place each and leave out those a mistake of its own explains;
// the unsaved secrets aside (see Validate).
func (w *Workload) Problems() []*Error {
	var out []*Error
	add := func(e *Error) {
		if e != nil {
			out = append(out, e)
		}
	}
	w.checkTop(add)
	w.checkLoad(add)
	w.checkTurn(add)
	w.checkMix(add)
	w.checkMaps(add)
	w.checkAuth(add)
	w.checkListen(add)
	w.checkHTTP(add)
	return out
}

func (w *Workload) checkTop(add func(*Error)) {
	if err := w.Target.Check(); err != nil {
		add(errorf("target", "%v", err))
	}
	if w.Protocol != DefaultProtocol && !isVersion(w.Protocol) {
		add(errorf("protocol", "want auto or a protocol version such as 2025-11-25, got %q", w.Protocol))
	}
	if w.Sessions < 1 || w.Sessions > MaxSessions {
		add(errorf("sessions", "%d is out of range (1 to %d)", w.Sessions, MaxSessions))
	}
}

// isVersion reports whether v looks like an MCP protocol version, a date
// YYYY-MM-DD. Unknown future versions are let through: the driver decides
// what it can speak.
func isVersion(v string) bool {
	if len(v) != 10 || v[4] != '-' || v[7] != '-' {
		return false
	}
	for i, c := range []byte(v) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func okRate(r units.Rate) bool { return r.PerSecond > 0 && !math.IsInf(r.PerSecond, 0) }

func (w *Workload) checkLoad(add func(*Error)) {
	add(w.checkModel())
	l := &w.Load
	if l.Arrival != ArrivalConstant && l.Arrival != ArrivalPoisson {
		add(errorf("load.arrival", "unknown arrival %q%s", l.Arrival, suggest.DidYouMean(l.Arrival, []string{ArrivalConstant, ArrivalPoisson})))
	}
	add(w.checkLength())
	w.checkSessions(add)
	sends := okRate(l.Rate) && len(l.Stages) > 0 && l.Stages[0].Ramp // a first ramp starts from load.rate
	for i, s := range l.Stages {
		key := IndexKey("load.stages", i)
		if !(s.Rate.PerSecond >= 0) || math.IsInf(s.Rate.PerSecond, 0) || s.Rate.PerSecond == 0 && s.Rate.Text == "" {
			add(errorf(key+".rate", "each stage needs a rate, such as 100/s (0/s for a pause)"))
			sends = true // said once: a missing rate, not also a run of pauses
		}
		sends = sends || okRate(s.Rate)
		if s.For <= 0 {
			add(errorf(key+".for", "each stage needs a length, such as for: 30s"))
		}
	}
	if len(l.Stages) > 0 && !sends {
		add(errorf("load.stages", "every stage is a pause (0/s): the run would send nothing"))
	}
}

// checkModel checks what the load model asks of the other keys of load.
func (w *Workload) checkModel() *Error {
	l := &w.Load
	switch l.Model {
	case ModelOpen:
		if len(l.Stages) == 0 && !okRate(l.Rate) {
			return errorf("load.rate", "the open model needs a rate of turns, such as 50/s (or stages)")
		}
		if l.Rate.PerSecond != 0 && !okRate(l.Rate) {
			return errorf("load.rate", "must be more than zero and finite")
		}
		if l.Concurrency != 0 {
			return errorf("load.concurrency", "concurrency is for the closed model; the open model starts turns at its rate whatever is in flight (cap that with max_in_flight)")
		}
	case ModelClosed:
		if l.Concurrency < 1 || l.Concurrency > MaxInFlight {
			return errorf("load.concurrency", "the closed model needs concurrency: the number of turns in flight (1 to %d)", MaxInFlight)
		}
		if l.Rate.PerSecond != 0 {
			return errorf("load.rate", "a rate is for the open model; the closed model starts a turn when one ends")
		}
		if len(l.Stages) > 0 {
			return errorf("load.stages", "stages are rate profiles, for the open model")
		}
		if l.Arrival == ArrivalPoisson {
			return errorf("load.arrival", "arrival is for the open model; the closed model starts a turn when one ends")
		}
	default:
		return errorf("load.model", "unknown model %q%s", l.Model, suggest.DidYouMean(l.Model, []string{ModelOpen, ModelClosed}))
	}
	return nil
}

// checkLength checks what ends the run and the in-flight cap.
func (w *Workload) checkLength() *Error {
	l := &w.Load
	switch {
	case l.Warmup < 0:
		return errorf("load.warmup", "must not be negative")
	case l.Duration < 0:
		return errorf("load.duration", "must not be negative")
	case l.Turns < 0:
		return errorf("load.turns", "must not be negative")
	case l.Duration > 0 && l.Turns > 0:
		return errorf("load.turns", "set duration or turns, not both")
	case len(l.Stages) > 0 && (l.Duration > 0 || l.Turns > 0):
		return errorf("load.stages", "stages set the run's length; remove duration and turns")
	case l.Duration == 0 && l.Turns == 0 && len(l.Stages) == 0:
		return errorf("load.duration", "nothing ends the run: set duration, turns or stages")
	case l.MaxInFlight < 1 || l.MaxInFlight > MaxInFlight:
		return errorf("load.max_in_flight", "%d is out of range (1 to %d)", l.MaxInFlight, MaxInFlight)
	}
	return nil
}

// checkSessions checks how sessions connect and churn.
func (w *Workload) checkSessions(add func(*Error)) {
	l := &w.Load
	if l.ConnectRate.PerSecond != 0 && !okRate(l.ConnectRate) {
		add(errorf("load.connect_rate", "must be more than zero and finite, such as 20/s"))
	}
	switch {
	case l.MinSessions < 0:
		add(errorf("load.min_sessions", "must not be negative (leave it out: all sessions must connect)"))
	case l.MinSessions > w.Sessions:
		add(errorf("load.min_sessions", "%d is more than the %d sessions asked for", l.MinSessions, w.Sessions))
	}
	if l.SessionTurns < 0 {
		add(errorf("load.session_turns", "must not be negative (leave it out: sessions live for the whole run)"))
	}
	if l.SessionLifetime < 0 {
		add(errorf("load.session_lifetime", "must not be negative (leave it out: sessions live for the whole run)"))
	}
}

func (w *Workload) checkTurn(add func(*Error)) {
	t := &w.Turn
	add(t.Attachments.check())
	if t.ReadTimeout <= 0 {
		add(errorf("turn.read_timeout", "must be more than zero: a read with no timeout can hang a turn forever"))
	}
	if t.Deadline < 0 {
		add(errorf("turn.deadline", "must not be negative (0 means no deadline)"))
	}
	if t.MaxAnswer < 0 {
		add(errorf("turn.max_answer", "must be more than zero, such as 256MiB"))
	}
}

func (a Attachments) check() *Error {
	switch {
	case len(a.Weighted) > 0 && a.Fixed != 0:
		return errorf("turn.attachments", "set a count or weights, not both")
	case len(a.Weighted) == 0 && (a.Fixed < 1 || a.Fixed > MaxAttachments):
		return errorf("turn.attachments", "%d is out of range (1 to %d)", a.Fixed, MaxAttachments)
	}
	for _, n := range slices.Sorted(maps.Keys(a.Weighted)) {
		if wt := a.Weighted[n]; n < 1 || n > MaxAttachments || wt < 1 {
			return errorf("turn.attachments", "a weighted count must be 1 to %d with a weight of at least 1, got %d: %d", MaxAttachments, n, wt)
		}
	}
	return nil
}

func (w *Workload) checkMix(add func(*Error)) {
	if len(w.Mix) == 0 {
		add(errorf("mix", "want at least one class of attachment"))
	}
	first := map[string]int{}
	for i := range w.Mix {
		key := IndexKey("mix", i)
		c := &w.Mix[i]
		if j, dup := first[c.Name]; c.Name == "" {
			add(errorf(key+".class", "every class needs a name (key class)"))
		} else if dup {
			add(errorf(key+".class", "duplicate class name %q (also mix[%d])", c.Name, j))
		} else {
			first[c.Name] = i
		}
		add(c.check(key))
	}
}

// check validates one class; key is its path ("mix[2]").
func (c *Class) check(key string) *Error {
	if !(c.Weight > 0) || math.IsInf(c.Weight, 0) {
		return errorf(key+".weight", "must be more than zero")
	}
	var ways []string
	if c.URI != "" {
		ways = append(ways, "uri")
	}
	if c.URIs != nil {
		ways = append(ways, "uris")
	}
	if c.Template != "" {
		ways = append(ways, "template")
	}
	synth := c.MIME != "" || c.Size != nil || c.SizeRange != nil
	if synth {
		ways = append(ways, "mime+size")
	}
	switch {
	case len(ways) == 0:
		return errorf(key, "class %q names no resources: set uri, uris, template (with vars) or mime and size", c.Name)
	case len(ways) > 1:
		return errorf(key, "class %q names its resources %d ways (%s): use one of uri, uris, template (with vars) or mime and size", c.Name, len(ways), strings.Join(ways, ", "))
	}
	if err := c.checkResources(key, synth); err != nil {
		return err
	}
	if c.Expect == methodNotFound {
		return errorf(key+".expect", "%s cannot be expected: a server without the method answers every read so, and a run of it measures nothing", c.Expect)
	}
	if c.Expect != "" && !slices.Contains(ExpectNames(), c.Expect) {
		return errorf(key+".expect", "unknown outcome %q%s", c.Expect, suggest.DidYouMean(c.Expect, ExpectNames()))
	}
	if c.Ranged != nil && c.Ranged.Chunk <= 0 {
		return errorf(key+".ranged.chunk", "want a chunk size of more than zero, such as 256KiB")
	}
	return nil
}

// checkResources validates the fields of the one way a class names its
// resources.
func (c *Class) checkResources(key string, synth bool) *Error {
	if len(c.URIs) == 0 && c.URIs != nil {
		return errorf(key+".uris", "want at least one URI")
	}
	for j, u := range c.URIs {
		if u == "" {
			return errorf(IndexKey(key+".uris", j), "empty URI")
		}
	}
	if c.Template == "" && c.Vars != nil {
		return errorf(key+".vars", "vars fill a template; this class has none")
	}
	if c.Template != "" {
		if err := c.checkTemplate(key); err != nil {
			return err
		}
	}
	if !synth {
		if c.Delay != nil {
			return errorf(key+".delay", "delay is the simulated server's think time: it applies to mime+size classes only")
		}
		if c.Entries != 0 {
			return errorf(key+".entries", "entries applies to mime+size classes only")
		}
		return nil
	}
	switch {
	case c.MIME == "":
		return errorf(key+".mime", "size needs mime: the type of the resource, such as text/markdown")
	case c.Size == nil && c.SizeRange == nil:
		return errorf(key+".size", "mime needs size: the resource's bytes, such as 8KiB or lognormal(8KiB, 200KiB), or a range such as 1KiB..5MiB or any")
	case c.Size != nil && c.SizeRange != nil:
		return errorf(key+".size", "a size and a size range: set one")
	case !validMIME(c.MIME):
		return errorf(key+".mime", "want a MIME type such as image/png, or a glob such as image/*, got %q", c.MIME)
	case c.Entries < 0 || c.Entries > MaxEntries:
		return errorf(key+".entries", "%d is out of range (0 to %d)", c.Entries, MaxEntries)
	}
	if isGlob(c.MIME) {
		if err := checkGlob(c.MIME); err != nil {
			return errorf(key+".mime", "%v", err)
		}
	}
	if r := c.SizeRange; r != nil {
		if r.Min < 0 || r.Min > r.Max {
			return errorf(key+".size", "a size range needs 0 <= min <= max, got %d..%d", r.Min, r.Max)
		}
		return c.checkDelay(key)
	}
	if c.Size.Unit != units.UnitBytes {
		return errorf(key+".size", "want a size in bytes")
	}
	if err := c.Size.Check(); err != nil {
		return errorf(key+".size", "%v", err)
	}
	return c.checkDelay(key)
}

// checkDelay validates the simulated server's think time of a mime+size
// class.
func (c *Class) checkDelay(key string) *Error {
	if c.Delay != nil {
		if c.Delay.Unit != units.UnitDuration {
			return errorf(key+".delay", "want a duration")
		}
		if err := c.Delay.Check(); err != nil {
			return errorf(key+".delay", "%v", err)
		}
	}
	return nil
}

// checkTemplate checks that a template parses and that its placeholders and
// vars match: an unused var or a placeholder without values is a typo.
func (c *Class) checkTemplate(key string) *Error {
	t, err := parseTemplate(c.Template)
	if err != nil {
		return errorf(key+".template", "%v", err)
	}
	for _, name := range t.names {
		if _, ok := c.Vars[name]; !ok {
			hint := ""
			if s := suggest.Closest(name, slices.Sorted(maps.Keys(c.Vars))); s != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", s)
			}
			return errorf(key+".vars", "the template uses {%s} but vars has no %s%s", name, name, hint)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Vars)) {
		vals := c.Vars[name]
		if !slices.Contains(t.names, name) {
			return errorf(key+".vars."+name, "not used by the template %q", c.Template)
		}
		if len(vals) == 0 {
			return errorf(key+".vars."+name, "want at least one value")
		}
	}
	return nil
}

// validMIME is a light check of "type/subtype": enough to catch a size
// written where the type belongs, without refusing vendor types.
func validMIME(m string) bool {
	typ, sub, ok := strings.Cut(m, "/")
	return ok && typ != "" && sub != "" && !strings.ContainsAny(m, " \t\r\n?&#%")
}

func (w *Workload) checkMaps(add func(*Error)) {
	for _, name := range slices.Sorted(maps.Keys(w.Headers)) {
		v := w.Headers[name]
		key := "headers." + name
		if !isToken(name) {
			add(errorf(key, "%q is not a valid header name", name))
		} else if strings.ContainsAny(v, "\r\n\x00") {
			add(errorf(key, "a header value must not contain line breaks"))
		}
		if e := w.checkTraceHeader(key, name, v); e != nil {
			add(e)
		}
	}
	for i, h := range w.AllowHosts {
		if h == "" || strings.ContainsAny(h, " \t\r\n/") {
			add(errorf(IndexKey("allow_hosts", i), "want a host name such as staging.example.com, got %q", h))
		}
	}
	for _, t := range w.Thresholds {
		if t.Metric == "" || strings.TrimSpace(t.Bound) == "" {
			add(errorf("thresholds."+t.Metric, "want a metric and a bound, such as turn.p99: \"<800ms\""))
		}
	}
}

// isToken reports whether s is an HTTP token (RFC 9110), the syntax of a
// header name.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}
