package workload

import (
	"time"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// Defaults of a workload file, named so the command line and the schema
// print the same figures the parser applies.
const (
	DefaultProtocol    = "auto"
	DefaultSessions    = 1
	DefaultSeed        = 1
	DefaultModel       = ModelOpen
	DefaultArrival     = ArrivalConstant
	DefaultMaxInFlight = 1000
	DefaultAttachments = 1
	// DefaultReadTimeout separates "slow" from "never going to answer"; the
	// 5 s a host allows a read sits far above any healthy read's latency.
	DefaultReadTimeout = 5 * time.Second
	// DefaultDuration ends a run that names neither duration, turns nor
	// stages: long enough for a first look, short enough not to surprise.
	DefaultDuration = 10 * time.Second
)

// Load models and arrival processes.
const (
	ModelOpen       = "open"     // turns start at a rate, whatever is in flight (how users arrive)
	ModelClosed     = "closed"   // a fixed number of turns in flight (how a batch job behaves)
	ArrivalConstant = "constant" // evenly spaced starts
	ArrivalPoisson  = "poisson"  // exponential gaps: bursts as real users make them
)

// Limits on counts, so that a typo such as an extra zero is an error
// instead of a run that exhausts the machine.
const (
	MaxSessions    = 100000
	MaxAttachments = 10000 // reads per turn
	MaxEntries     = 10000 // contents entries per answer, as the simulated server allows
	MaxInFlight    = 10000000
)

// Workload is a resolved workload: defaults applied and invariants
// checked. The command line may override fields and then call Validate.
// It marshals to the "workload" key of a result and back (savedjson.go,
// savedread.go): what a result says ran, and what `run --like` runs.
type Workload struct {
	Name        string
	Description string            // one line for "readbench scenarios"; key "description"
	Source      string            // file name it came from ("<builtin>/docs-attachments.yaml" for scenarios)
	Target      targets.Target    // default embedded
	Protocol    string            // "auto" (default) or a version string like "2025-11-25"
	Sessions    int               // default 1
	Seed        int64             // default 1
	Load        Load              // how turns arrive
	Turn        Turn              // what a turn is
	Mix         []Class           // what each read reads
	Headers     map[string]string // raw values as written (may contain ${ENV}); not expanded here
	AllowHosts  []string          // non-loopback hosts the user allows a run to load
	Thresholds  []Threshold       // parsed with the file, sorted by metric; each also as written, e.g. turn.p99: "<800ms"
	Auth        *Auth             // an OAuth-protected server's authorization; nil: none
	Listen      *Listen           // sessions that subscribe and re-read on change (listen.go); nil: none
	Changes     *Changes          // changes readbench makes for the listeners to be told of; nil: none
	HTTP        HTTP              // the HTTP version and HTTP/2 connections (http.go); zero: auto

	// InsecureCredentials lets headers go to a non-loopback host over
	// plain http://. No key sets it: only --insecure-credentials, said
	// each time.
	InsecureCredentials bool

	places Places // where each key path was written; nil unless parsed from a file
}

// Load says when turns start and when the run ends.
//
// The open model (the default) starts turns at Rate whatever is in flight,
// as independent users do, so a slow server shows up as latency instead of
// as a politely reduced load. The closed model keeps Concurrency turns in
// flight, like a batch job. The run ends after Duration, after Turns turns,
// or at the end of the Stages; Warmup runs first and is recorded apart.
type Load struct {
	Model       string        // "open" (default) | "closed"
	Rate        units.Rate    // turns per second (open); with stages, the rate a first ramping stage starts from
	Concurrency int           // closed model: turns in flight
	Arrival     string        // "constant" (default) | "poisson"
	Warmup      time.Duration // before the measured run, recorded separately
	Duration    time.Duration // 0 when Turns or Stages end the run
	Turns       int           // alternative to Duration
	Stages      []Stage       // a rate profile (open model); sets the run's length
	MaxInFlight int           // default 1000 (turns); beyond it a turn's reads are dropped, counted, never queued
	// HandshakeTimeout bounds opening each session (starting a stdio
	// server, the handshake); 0 when unset: the client's default, or
	// --handshake-timeout, which overrides it.
	HandshakeTimeout time.Duration
	// ConnectRate paces opening the sessions (sessions per second; zero:
	// as fast as the bounded parallelism allows), so a run of hundreds of
	// stdio children does not start them all at once.
	ConnectRate units.Rate
	// MinSessions is how many sessions must connect for the run to go on
	// (0: all of them); a run that goes on with fewer records it in the
	// result's sessions block.
	MinSessions int
	// SessionTurns and SessionLifetime are session churn: a session is
	// closed and a new one opened after that many turns on it, or at its
	// first turn once it is that old (0: sessions live for the whole run).
	// A new host's cost is then measured: the handshake and first_read
	// blocks.
	SessionTurns    int
	SessionLifetime time.Duration
	// NoKeepAlive is `keep_alive: false`: every read on a connection of
	// its own, closed after it (Connection: close), as a client without
	// keep-alive, or behind a proxy that closes connections, meets the
	// server. The default (false here, keep_alive: true) is a real
	// client's pool: a finished read's connection is reused.
	NoKeepAlive bool
	// TraceSample is load.trace_sample: the share of turns whose reads
	// carry W3C trace context, with the sampled flag set (nil: 1, every
	// turn; 0: none). A turn is one trace, each read a span of it
	// (docs/measurement.md, trace context).
	TraceSample *float64
}

// Churn reports whether sessions are replaced during the run.
func (l Load) Churn() bool { return l.SessionTurns > 0 || l.SessionLifetime > 0 }

// Length is how long the measured run lasts (after warmup): Duration, or the
// sum of the stages; 0 when the run is ended by a number of turns.
func (l Load) Length() time.Duration {
	if len(l.Stages) == 0 {
		return l.Duration
	}
	var sum time.Duration
	for _, s := range l.Stages {
		sum += s.For
	}
	return sum
}

// Stage is one step of a rate profile: hold Rate for For, or, with Ramp,
// move linearly from the previous stage's rate (the load's Rate, or 0, for
// the first stage) to Rate over For. Stages find a knee that one rate hides.
type Stage struct {
	Rate units.Rate
	For  time.Duration
	Ramp bool
}

// Turn says what a turn is: how many attachments are read in parallel and
// the two ceilings a host puts on them (docs/workload.md (turn)): the
// per-read timeout that tells slow from never, and the turn deadline at
// which stragglers are cancelled.
type Turn struct {
	Attachments Attachments
	ReadTimeout time.Duration // per read; default 5s
	Deadline    time.Duration // 0 = no deadline
	MaxAnswer   int64         // bytes per answer; 0 = targets.DefaultMaxAnswer
}

// Attachments is the number of reads per turn: a fixed count, or a count
// drawn per turn by weight (users attach one file more often than ten).
type Attachments struct {
	Fixed    int         // when not weighted
	Weighted map[int]int // count -> weight, e.g. {1: 50, 4: 40, 10: 10}
}

// Max is the largest number of reads a turn can have, for sizing buffers
// and the in-flight budget.
func (a Attachments) Max() int {
	m := a.Fixed
	for n := range a.Weighted {
		m = max(m, n)
	}
	return m
}

// Class is one entry of the mix: a kind of attachment, drawn with a weight.
// A class names its resources one way: URI, URIs, Template with Vars, or
// MIME with Size (or SizeRange). The simulated server synthesizes a plain
// MIME type with a size or distribution (it reads the description from the
// URI); anything else, and every mime+size class against a real server, is
// resolved from the target's listing: see resolve.go.
type Class struct {
	Name      string              // key "class", required, unique
	Weight    float64             // default 1, > 0
	URI       string              // one fixed URI
	URIs      []string            // one drawn uniformly per read
	Template  string              // RFC 6570 level 1 (and {+var}) template ...
	Vars      map[string][]string // ... and its variables: name -> values, one drawn per read
	MIME      string              // mime+size: the resource's type, or a glob over types ("image/*") ...
	Size      *units.Dist         // ... and size in bytes (of each entry); nil when unset or a range ...
	SizeRange *SizeRange          // ... or a range of sizes ("1KiB..5MiB"), a filter over the listing; nil when unset
	Delay     *units.Dist         // server think time, embedded target only; nil when unset
	Entries   int                 // contents entries per answer, each of Size bytes (embedded target); 0 = one
	Expect    string              // "" (= ok) or the outcome this class should end with, e.g. "not_found"
	Ranged    *Ranged             // fetch with the ranged read tool instead of resources/read; nil when unset
}

// Ranged asks for an attachment to be fetched with the ranged `read` tool
// (docs/check.md (read tool)) in chunks of Chunk bytes until eof
// (docs/workload.md (mix), key "ranged").
type Ranged struct {
	Chunk int64 // bytes per chunk, > 0
}

// ExpectNames are the outcomes a class may expect (docs/measurement.md (outcomes)), plus "error",
// meaning any JSON-RPC error. "expected_error", "dropped" and
// "method_not_found" are not among them: the first is what a met
// expectation is counted as, the second is the driver's doing, never the
// server's answer, and the third is a server without the read's method,
// which answers every read so whatever it names: no class's error.
func ExpectNames() []string {
	return []string{"ok", "error", "not_found", "invalid_params", "internal", "rpc_error",
		"input_required", "timeout", "cancelled", "transport", "protocol"}
}

// Defaults is a workload with every default applied and nothing else:
// what the file's parser starts from, so that a key left out has its
// default.
func Defaults() *Workload {
	return &Workload{
		Target:   targets.Target{Kind: targets.Embedded},
		Protocol: DefaultProtocol,
		Sessions: DefaultSessions,
		Seed:     DefaultSeed,
		Load: Load{
			Model:       DefaultModel,
			Arrival:     DefaultArrival,
			MaxInFlight: DefaultMaxInFlight,
		},
		Turn: Turn{
			Attachments: Attachments{Fixed: DefaultAttachments},
			ReadTimeout: DefaultReadTimeout,
		},
	}
}

// ApplyDefaults fills the zero fields of w with the defaults of the file
// format, as the file's parser (yamlfile.Parse) does, so that code
// building a Workload literal (tests, `readbench init`, the capacity
// search) need only set what matters before Validate. Zero values that
// are meaningful are kept: a Seed of 0, a Warmup or Deadline of 0. A run
// with no end gets DefaultDuration; a class with no weight gets 1.
func (w *Workload) ApplyDefaults() {
	d := Defaults()
	if w.Target.Kind == "" {
		w.Target.Kind = targets.Embedded
	}
	setIfZero(&w.Protocol, d.Protocol)
	setIfZero(&w.Sessions, d.Sessions)
	setIfZero(&w.Load.Model, d.Load.Model)
	setIfZero(&w.Load.Arrival, d.Load.Arrival)
	setIfZero(&w.Load.MaxInFlight, d.Load.MaxInFlight)
	setIfZero(&w.Turn.ReadTimeout, d.Turn.ReadTimeout)
	if w.Turn.Attachments.Fixed == 0 && len(w.Turn.Attachments.Weighted) == 0 {
		w.Turn.Attachments.Fixed = DefaultAttachments
	}
	if w.Load.Duration == 0 && w.Load.Turns == 0 && len(w.Load.Stages) == 0 {
		w.Load.Duration = DefaultDuration
	}
	for i := range w.Mix {
		setIfZero(&w.Mix[i].Weight, 1)
	}
}

func setIfZero[T comparable](p *T, v T) {
	var zero T
	if *p == zero {
		*p = v
	}
}

// methodNotFound is the outcome of a read the server has no method for:
// named here so that `expect: method_not_found` is refused with the
// reason, not as an unknown outcome.
const methodNotFound = "method_not_found"

// Closed reports whether the load keeps a fixed number of turns in flight
// (the closed model) rather than starting turns at a rate: the reports
// word the load line by it.
func (l Load) Closed() bool { return l.Model == ModelClosed }

// Limit is the most a turn lasts: its deadline, else (no deadline) the
// read timeout, which ends its last read. A turn that did not finish (cut,
// dropped) is recorded at it, a lower bound, and a capacity step's latency
// is judged within it.
func (t Turn) Limit() time.Duration {
	if t.Deadline > 0 {
		return t.Deadline
	}
	return t.ReadTimeout
}
