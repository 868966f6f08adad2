package results

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// Result is one saved run: the JSON document "readbench/result/v1". Every
// field is always written (no omitempty), maps and lists as {} and [] when
// empty, so the keys of a result never depend on what happened in the run.
//
// Latency blocks are the type Latency; a class inlines its latency block
// next to its counters (see Class).
type Result struct {
	Schema  string    `json:"schema"` // always Schema
	Tool    Tool      `json:"tool"`
	Started Timestamp `json:"started"`
	Ended   Timestamp `json:"ended"`
	Partial bool      `json:"partial"` // interrupted (Ctrl-C): the figures cover what ran
	// Health is the run's health (health.go): healthy, overloaded,
	// failing, generator-bound or useless, the line every report opens
	// with and its reasons. Saved as "verdict" (a threshold's outcome is
	// a Verdict). Added in v1; worked out again from the counts on load
	// (Parse), never taken on trust.
	Health Health `json:"verdict"`
	// Workload is the workload as the run resolved it (defaults and flags
	// applied), in its saved form: secrets redacted (workload.Redacted),
	// values as their text; read back into the workload's own types.
	Workload workload.Workload `json:"workload"`
	Target   Target            `json:"target"`
	Host     Host              `json:"host"`
	Totals   Totals            `json:"totals"`
	// Read is the latency of every read sent, from its turn's intended
	// start: answers of any kind to their last byte, and reads cut by the
	// deadline or the timeout at the moment they were cut (its
	// lower_bounds count them), so a tail past the deadline never looks
	// fast and coordinated omission cannot hide. ReadOK is ok answers
	// only: the tail to size a timeout on, which fast error answers cannot
	// pull down.
	Read   stats.Latency `json:"read"`
	ReadOK stats.Latency `json:"read_ok"`
	// Lag is the scheduling lag of every read sent: from its intended
	// start to the moment the generator handed it to the transport.
	// GeneratorBound says the generator, not the server, limited the run:
	// it could not keep the schedule, or its lag is a material share of
	// the read figures (the generator block says which, and how much);
	// the reports say so. LagBoundMs is max(1 ms, read_ok p50 / 10), kept
	// for the figures' sake: a lag below it is under timer noise.
	Lag            stats.Latency `json:"lag"`
	LagBoundMs     float64       `json:"lag_bound_ms"`
	GeneratorBound bool          `json:"generator_bound"`
	// Service is actual send to last byte: beside Read it shows how much
	// of the latency was the generator falling behind.
	Service stats.Latency `json:"service"`
	// ServiceOK is service time of the ok answers alone: what a timeout
	// sized on service time is sized on (documents, never fast errors).
	// Added in v1; empty (count 0) in a result written before it.
	ServiceOK stats.Latency `json:"service_ok"`
	// TTFB is actual send to first byte: server think time without the
	// transfer, which dominates large blobs.
	TTFB stats.Latency `json:"ttfb"`
	// Handshake is how long opening each session took, its connect's
	// start to the end of its handshake: the initial sessions and, with
	// churn, every replacement. FirstRead is the latency of the first read
	// sent on each session (also in Read): with Handshake, what a new host
	// costs. Sessions is how connecting went. Added in v1.
	Handshake stats.Latency `json:"handshake"`
	FirstRead stats.Latency `json:"first_read"`
	Sessions  Sessions      `json:"sessions"`
	// Strays is what the servers sent that readbench could only skip:
	// stray stdout lines, answers to ids never sent, second answers
	// (strays.go). Added in v1.
	Strays Strays `json:"strays"`
	// Connections is what the run's HTTP connections did: opened, reused,
	// and who closed them (connections.go); null over stdio. Added in v1.
	Connections *Connections `json:"connections"`
	// Chunk is the latency of each part of every ranged fetch (a class
	// with ranged: {chunk}), its own send to its last byte; the read
	// blocks hold the whole fetch. Empty (count 0) without ranged classes.
	Chunk stats.Latency `json:"chunk"`
	// Generator is readbench's own cost in the run (the reader's side).
	Generator Generator `json:"generator"`
	// Turn is intended start to the last read's completion or the deadline.
	Turn stats.Latency `json:"turn"`
	// TurnSizes is turn latency by number of attachments, smallest first:
	// the slowest of ten parallel reads is not the slowest of one.
	TurnSizes    []TurnSize   `json:"turn_sizes"`
	Classes      []Class      `json:"classes"`
	Cancellation Cancellation `json:"cancellation"`
	Shape        stats.Shape  `json:"shape"`
	// ServerCost is what the server itself spent (CPU, memory, cold
	// start); Digests are the content digests (what a read of each URI
	// returned, sampled as docs/results.md says), so compare can tell when
	// a read's content changed.
	ServerCost ServerCost        `json:"server_cost"`
	Digests    map[string]Digest `json:"digests"`  // URI -> what it returned
	Timeline   []Second          `json:"timeline"` // one entry per second of the run, warmup included
	Advice     Advice            `json:"advice"`
	// Thresholds are the bounds the run was held to (the workload's
	// thresholds and --threshold), each with its measured value and
	// verdict; empty when there were none. Added in v1.
	Thresholds []Verdict `json:"thresholds"`
	// Warmup is recorded apart and never mixed into the figures above.
	Warmup Warmup `json:"warmup"`
	// Segment is the share of a run this result covers (--segment k/n):
	// {1, 1} for a whole run, a merged one included. Shards lists, for a
	// result merged from shards (readbench merge), what each shard was and
	// where it ran, with its server cost; empty for a run of one process.
	Segment Segment `json:"segment"`
	Shards  []Shard `json:"shards"`
	// Metrics is what --metrics did; null in a run without it (and in
	// readbench merge's output, and the steps and runs of capacity and ab,
	// whose pushes end with the command). Added in v1.
	Metrics *LiveMetrics `json:"metrics"`
	// Auth is authorization as a measured cost (auth.go); null in a run
	// without tokens. Added in v1.
	Auth *Auth `json:"auth"`
	// Subscriptions is the freshness loop of a run with listeners
	// (subscriptions.go); null in a run without a listen section. Added
	// in v1.
	Subscriptions *Subscriptions `json:"subscriptions"`

	// judged is how the command that made the result judged it
	// (SetJudgement, judge.go): not saved, a result read back is judged
	// again from the document.
	judged *Judgement
}

// Totals are the run's counters and rates over the measured phase.
//
// Rates divide by MeasuredS, the length of the measured phase (warmup
// excluded). ErrorRate is a fraction of the scheduled reads (0.01 = 1%), the
// same base as the identity, and null when no read was scheduled. MB are
// 10^6 bytes.
type Totals struct {
	Scheduled    int64            `json:"scheduled"`   // reads scheduled, dropped ones included
	Outcomes     map[string]int64 `json:"outcomes"`    // every outcome name, zeros too
	ReadsPerS    *float64         `json:"reads_per_s"` // null, as every rate, when measured_s is 0
	TurnsPerS    *float64         `json:"turns_per_s"`
	WireBytes    int64            `json:"wire_bytes"`       // every read's: the wire's real cost
	ErrorWire    int64            `json:"error_wire_bytes"` // of wire_bytes, the reads that did not end ok (added in v1)
	DiskBytes    int64            `json:"disk_bytes"`       // ok answers' decoded bytes
	Turns        int64            `json:"turns"`
	TurnEnds     TurnEnds         `json:"turn_ends"`
	Errors       int64            `json:"errors"`
	ErrorRate    *float64         `json:"error_rate"`    // null when nothing was scheduled
	AskedRate    float64          `json:"asked_rate"`    // turns/s asked; 0 for the closed model
	AchievedRate *float64         `json:"achieved_rate"` // turns/s that started (= TurnsPerS): dropped turns are not achieved
	Base64Bytes  int64            `json:"base64_bytes"`
	Inflation    *float64         `json:"inflation"` // ok answers' wire/disk, null when nothing was decoded
	WireMBPerS   *float64         `json:"wire_mb_per_s"`
	DiskMBPerS   *float64         `json:"disk_mb_per_s"`
	// IdentityOK is scheduled = sum of outcomes. A false here means reads
	// were lost by the generator: the other figures cannot be trusted.
	IdentityOK bool    `json:"identity_ok"`
	MeasuredS  float64 `json:"measured_s"` // seconds of the measured phase, the base of every rate
	// MisusedMethodNotFound counts, of the not_found and expected_error
	// reads, those the server answered -32601 (Method not found) worded
	// as a missing resource while it answered other reads with a result:
	// its misuse of the code, which a client takes for a missing
	// resources/read (added in v1: 0 in older files).
	MisusedMethodNotFound int64 `json:"misused_method_not_found"`
}

// TurnEnds counts how turns ended.
type TurnEnds struct {
	Complete int64 `json:"complete"`
	Cut      int64 `json:"cut"`
	Failed   int64 `json:"failed"`
	// Dropped turns never started (max_in_flight, or a generator that got
	// to them after their deadline): failed turns, recorded in the turn
	// block at the deadline as lower bounds.
	Dropped int64 `json:"dropped"`
}

// Class is one class of the mix. Its latency block is inlined: the keys
// count, p50_ms ... hdr sit beside class, mime and reads, so that
// `jq '.classes[] | {class, p99_ms}'` works without a level of nesting.
// Reads counts every read of the class whatever its outcome; Count (of the
// latency block) only the answered ones.
type Class struct {
	Class    string           `json:"class"`
	MIME     string           `json:"mime"`
	Reads    int64            `json:"reads"`
	Errors   int64            `json:"errors"`
	Outcomes map[string]int64 `json:"outcomes"`
	// ExpectUnmet counts, for a class with an expect (workload.md), the
	// reads the server answered other than expected: ok where an error
	// was expected, or another error (reads cut, dropped or lost with
	// their connection are no answer). 0 for a class without one. Worked
	// out from the outcomes when the result is built and loaded (added in
	// v1: an older file gets it then).
	ExpectUnmet int64 `json:"expect_unmet"`
	stats.Latency
	// WireBytes is every read's wire bytes (the wire's real cost);
	// ErrorWire, of those, the bytes of reads that did not end ok (error
	// answers, the part of cut reads that arrived), reported apart: the
	// rest, the ok answers', are what inflation is over. DiskBytes and
	// Base64Bytes are the ok answers' (the documents). ErrorWire was added
	// in v1: a result without it counted every read's bytes in inflation.
	WireBytes   int64    `json:"wire_bytes"`
	ErrorWire   int64    `json:"error_wire_bytes"`
	DiskBytes   int64    `json:"disk_bytes"`
	Base64Bytes int64    `json:"base64_bytes"`
	Inflation   *float64 `json:"inflation"` // ok answers' wire/disk, null when disk is 0
	// The inflation split, over ok answers: EncodingBytes is what base64
	// adds (a quarter of the base64 characters, exact up to padding),
	// EnvelopeBytes the rest of the wire bytes above disk (JSON framing,
	// field names, escaping).
	EncodingBytes int64 `json:"encoding_bytes"`
	Base64Padding int64 `json:"base64_padding"` // '=' characters: base64 is exactly 4·ceil(n/3) per blob
	EnvelopeBytes int64 `json:"envelope_bytes"`
	Cache         Cache `json:"cache"`
	// Chunk is the latency of each part of the class's ranged fetches
	// (count 0 for a class read whole); FirstUsable is intended start to
	// the first byte a reader could use (docs/measurement.md (first usable byte)).
	Chunk       stats.Latency `json:"chunk"`
	FirstUsable stats.Latency `json:"first_usable"`
	// SlowReads names the class's slowest reads and those that broke a
	// bound, with their trace ids (slowreads.go).
	SlowReads *stats.SlowReads `json:"slow_reads,omitempty"`
}

// Cache is what a class's answers said about caching them (2026-07-28
// ttlMs and cacheScope): hinted answers, their TTL range, their scopes.
type Cache struct {
	Hinted   int64   `json:"hinted"`
	MinTTLMs float64 `json:"min_ttl_ms"`
	MaxTTLMs float64 `json:"max_ttl_ms"`
	Public   int64   `json:"public"`
	Private  int64   `json:"private"`
	// WouldNotSend counts reads sent while an earlier answer for the same
	// URI was still fresh: a host honouring the hints would have skipped
	// them. Share is of the class's sent reads (dropped ones were never
	// sent), null when none was sent.
	WouldNotSend      int64    `json:"would_not_send"`
	WouldNotSendShare *float64 `json:"would_not_send_share"`
}

// TurnSize is the latency of turns with a given number of attachments.
type TurnSize struct {
	Attachments int `json:"attachments"`
	stats.Latency
}

// Cancellation is what the turn deadline cancelled and what the server did
// after: a late answer is an answer to a read the deadline or the timeout
// gave up on, its bytes wasted — it may have crossed the cancel on the
// wire. Ignored counts apart the late answers whose first byte came more
// than the round-trip allowance (AllowanceMs, the largest used; AllowancesMs, their spread) after the
// cancel was on the server's side: cancels the server had time to act on,
// the only verdict against it. Where the transport cannot see late answers
// (Streamable HTTP closes the request's stream), Observable is false and
// LateAnswers, WastedBytes, Ignored and IgnoredBytes are null: "not
// observable", never a 0 that would read as "the server honoured it";
// AllowanceMs is null too when no late answer was judged. LateWatchMs is
// how long after the last turn the run kept watching for late answers.
type Cancellation struct {
	Cancelled      int64         `json:"cancelled"`
	Observable     bool          `json:"late_observable"`
	LateAnswers    *int64        `json:"late_answers"`
	WastedBytes    *int64        `json:"wasted_bytes"`
	LateWatchMs    float64       `json:"late_watch_ms"`
	CancelToLateMs stats.Latency `json:"cancel_to_late_ms"` // a zero block (count 0) when none
	Ignored        *int64        `json:"ignored"`
	IgnoredBytes   *int64        `json:"ignored_bytes"`
	AllowanceMs    *float64      `json:"allowance_ms"`
	// AllowancesMs is the distribution of the allowances the late answers
	// were judged with (each with its own cancel's ping, so they spread
	// with the load): a zero block (count 0) when none was judged.
	AllowancesMs stats.Latency `json:"allowances_ms"`
}

// Warmup is what the warmup phase recorded, kept apart so that cold caches
// and connection set-up do not pollute the measured figures, yet remain
// visible.
type Warmup struct {
	Scheduled int64            `json:"scheduled"`
	Turns     int64            `json:"turns"`
	Outcomes  map[string]int64 `json:"outcomes"`
	Read      stats.Latency    `json:"read"`
}

// timestampLayout is RFC 3339 with milliseconds: finer is noise for a run
// start, and a fixed width keeps results sortable as text.
const timestampLayout = "2006-01-02T15:04:05.000Z07:00"

// Timestamp is a time written as RFC 3339 in UTC with milliseconds.
type Timestamp struct{ time.Time }

// NewTimestamp rounds t down to the millisecond in UTC, the precision it
// is saved with, so that a result loads back equal to what was built.
func NewTimestamp(t time.Time) Timestamp {
	return Timestamp{t.UTC().Truncate(time.Millisecond)}
}

// MarshalJSON writes the time as "2026-11-30T02:28:47.123Z".
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.UTC().Format(timestampLayout))
}

// UnmarshalJSON reads any RFC 3339 time and normalises it as NewTimestamp
// does. Years outside 0000-9999 in UTC are refused: they could not be
// written back as RFC 3339.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	if string(b) == "null" { // as encoding/json does: null leaves the value alone
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a time must be an RFC 3339 string: %w", err)
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("bad time %q: %w", s, err)
	}
	if y := v.UTC().Year(); y < 0 || y > 9999 {
		return fmt.Errorf("bad time %q: year out of range", s)
	}
	*t = NewTimestamp(v)
	return nil
}

// Second is one second of the timeline: what was asked and achieved, what
// was in flight and how reads fared, so a stall or a generator falling
// behind can be seen when it happened.
type Second struct {
	T        int     `json:"t_s"`    // seconds since the run started, warmup included
	Warmup   bool    `json:"warmup"` // the second belongs to the warmup
	Asked    float64 `json:"asked_turns_per_s"`
	Achieved float64 `json:"achieved_turns_per_s"` // turns that started in this second
	Reads    int64   `json:"reads"`                // reads that finished in this second
	Errors   int64   `json:"errors"`               // of those, reads with an error outcome
	InFlight int64   `json:"in_flight"`            // turns in flight at the end of the second
	P50Ms    float64 `json:"p50_ms"`               // read latency of the reads that finished, cut ones at the cut
	P99Ms    float64 `json:"p99_ms"`
	LagMaxMs float64 `json:"lag_max_ms"` // the largest scheduling lag of those reads
	// HDR is the histogram of those reads' latency ("" when none), so that
	// the timelines of shards merge exactly (readbench merge).
	HDR string `json:"hdr"`
}

// Advice is the policy advice read off the histograms: what each candidate
// turn deadline would cut and each read timeout would end, and the pair
// readbench recommends with its reasoning. Reasoning is sentences written
// when the result was built (see adviceReasoning); reports print them as
// stored, so every format says the same. Caveat and Withheld say what the
// machine's contention did to the pair (advice_contention.go): a caveat
// every report prints with the recommendation, and a pair withheld from a
// run too contended to size it on. Added in v1: "" and false before.
type Advice struct {
	Deadlines []Candidate `json:"deadlines"` // share of turns each deadline would cut
	Timeouts  []Candidate `json:"timeouts"`  // share of reads each timeout would end
	// RecommendedDeadlineMs and RecommendedTimeoutMs are the pair
	// recommended, null when none is (no turn finished, too few reads
	// answered, a run too noisy or contended to size it on: Reasoning says
	// which), never a 0 a CI script would set; read them with Recommended.
	RecommendedDeadlineMs *float64 `json:"recommended_deadline_ms"`
	RecommendedTimeoutMs  *float64 `json:"recommended_timeout_ms"`
	Caveat                string   `json:"caveat"`
	Withheld              bool     `json:"withheld"`
	Reasoning             []string `json:"reasoning"`
}

// Recommended is the recommended turn deadline and read timeout in
// milliseconds, 0 for one readbench recommends none of (null in the
// document, or 0 in a result saved before v1 made it null).
func (a Advice) Recommended() (deadlineMs, timeoutMs float64) {
	if a.RecommendedDeadlineMs != nil {
		deadlineMs = max(*a.RecommendedDeadlineMs, 0)
	}
	if a.RecommendedTimeoutMs != nil {
		timeoutMs = max(*a.RecommendedTimeoutMs, 0)
	}
	return deadlineMs, timeoutMs
}

// Candidate is one candidate limit and the share (0..1) of turns or reads
// that would have exceeded it in this run: null when no turn finished (a
// deadline) or no read was sent (a timeout). AtLeast (at_least, present
// only when true) marks a share that is a lower bound: a timeout above the
// turn deadline, which cancelled reads before it could act; the reports
// print it "≥".
type Candidate struct {
	Ms      float64  `json:"ms"`
	Share   *float64 `json:"share"`
	AtLeast bool     `json:"at_least,omitempty"`
}
