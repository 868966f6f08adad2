package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/results"
)

// Comparison is what `readbench compare` computes: every figure a release
// review asks about, side by side with its change, each change tested
// against the run-to-run spread of the runs on each side
// (compareruns.go; one run per side cannot be, and says so), the content that
// changed per URI, and, when the caller held it to bounds, each bound's
// verdict. Every view (table, markdown, JSON, JUnit, HTML) renders this
// one model and computes nothing of its own; its JSON form is
// `compare --format json` (docs/compare.md).
//
// Metric names are those of the bounds grammar (package bounds), so a
// delta printed as "class.png.read.p99" is the bound one writes for it.
type Comparison struct {
	// Command is the command that compared: "compare", or "ab" for an
	// experiment of base and new side by side; every view's title names it ("" reads as
	// compare, as in comparisons saved before it was kept).
	Command string `json:"command"`
	Base    Side   `json:"base"`
	New     Side   `json:"new"`
	// Method is the test the verdicts come from: MethodRuns (a rank test
	// of the runs of each side), MethodPaired (ab's rounds, a paired test),
	// MethodHistory (one run against the spread of the other side's runs)
	// or MethodPair (one run per side: no verdict across runs). Alpha is its significance level, and Test
	// says the method in a sentence every view prints.
	Method string  `json:"method"`
	Alpha  float64 `json:"alpha"`
	Test   string  `json:"test"`
	// Gate is how CheckBounds treats a change without a verdict.
	Gate Gate `json:"gate"`
	// Answer is, for an ab experiment, whether its rounds answered the
	// bounds' question; nil for compare.
	Answer *Answer `json:"answer,omitempty"`
	// Differences are how the two workloads differ in what they ask (name,
	// mix, turn, load): Compare refuses unless forced, and a forced
	// comparison keeps them so every view can say so.
	Differences []string `json:"differences"`
	Forced      bool     `json:"forced"`
	// Notes are differences that do not make the runs incomparable but
	// qualify the figures: length, seed, a partial or generator-bound run.
	Notes []string `json:"notes"`
	// NoiseFloor is the smallest relative change of a latency or a rate
	// that may be called significant (0.05 = 5%), whatever the test says:
	// two runs of one server on a busy machine differ by more than their
	// sampling error.
	NoiseFloor float64 `json:"noise_floor"`
	// Latency is one block each for read, read_ok, turn, service, ttfb
	// and lag, overall.
	Latency    []LatencyDelta  `json:"latency"`
	Classes    []ClassDelta    `json:"classes"`
	TurnSizes  []TurnSizeDelta `json:"turn_sizes"`
	Rates      []Delta         `json:"rates"`    // asked_rate, rate (turns/s started), read_rate (reads/s sent)
	Outcomes   []Delta         `json:"outcomes"` // errors, then outcome.NAME for every outcome, in % of scheduled reads
	Inflation  []Delta         `json:"inflation"`
	ServerCost []Delta         `json:"server_cost"` // empty unless both results measured it
	ColdStart  []Delta         `json:"cold_start"`  // empty unless both results measured it
	// Subscriptions are the freshness loop's changes (ack and notify p50
	// and p99, notify.missed, notify.violations, streams.refused): empty
	// unless both runs had listeners (a note says when one had).
	Subscriptions []Delta      `json:"subscriptions"`
	Content       Content      `json:"content"`
	Bounds        []BoundCheck `json:"bounds"` // filled by the caller (package bounds); empty without --fail-on
	// Estimator, when set, estimates a bound's change from finer units
	// than the runs (ab's windows); a figure it cannot estimate (false)
	// is estimated from the runs. Not part of the document.
	Estimator Estimator `json:"-"`
	// Rounds are an ab experiment's rounds (empty for compare): which base
	// run was paired with which new run, in which order, and each round
	// re-run or excluded with why; RoundDelta is a round's change.
	Rounds []Round `json:"rounds,omitempty"`
}

// Round is one round of an ab experiment: its runs (labels of Side.Runs;
// "" for an excluded round), the order they ran in, the attempts it took
// and why each noisy attempt did not count.
type Round struct {
	Index    int      `json:"index"`
	Order    []string `json:"order"`
	Attempts int      `json:"attempts"`
	Kept     bool     `json:"kept"`
	Noisy    []string `json:"noisy"`
	Base     string   `json:"base"`
	New      string   `json:"new"`
}

// RoundDelta is a kept round's change of a metric: its base run's value
// against its new run's (from the delta's BaseRuns and NewRuns); false
// for an excluded round or a metric without every run's values.
func (c *Comparison) RoundDelta(r Round, metric string) (Delta, bool) {
	d, ok := c.Find(metric)
	bi, ni := slices.Index(c.Base.Runs, r.Base), slices.Index(c.New.Runs, r.New)
	if !ok || !r.Kept || bi < 0 || ni < 0 || bi >= len(d.BaseRuns) || ni >= len(d.NewRuns) {
		return Delta{}, false
	}
	rd := newDelta(d.Metric, d.Label, d.Unit, d.BaseRuns[bi], d.NewRuns[ni])
	rd.Noise = Untested
	if rd.Base == rd.New {
		rd.Noise = Unchanged
	}
	rd.Note = "one round: no test"
	return rd, true
}

// Side is one of the two results: which server, which version, which
// protocol, when, and with which readbench, printed at the top of every
// view because a comparison is only as good as knowing what was compared.
type Side struct {
	Label           string            `json:"label"` // the file as given; for several, how many and the first and last
	Runs            []string          `json:"runs"`  // every result of the side, oldest first
	Workload        string            `json:"workload"`
	Server          results.Server    `json:"server"`
	ProtocolVersion string            `json:"protocol_version"`
	Transport       string            `json:"transport"`
	Address         string            `json:"address"`
	Started         results.Timestamp `json:"started"`
	Tool            results.Tool      `json:"tool"`
	MeasuredS       float64           `json:"measured_s"`
	Scheduled       int64             `json:"scheduled"`
	Partial         bool              `json:"partial"`
	GeneratorBound  bool              `json:"generator_bound"`
	// Slowest are the side's slowest reads (SideSlowest of them, over
	// every run and class) with their trace ids: what to open when a gate
	// fails. Empty for results that kept no reads by name.
	Slowest []SlowRead `json:"slowest_reads"`
}

// Noise is the verdict of the noise test of one delta.
type Noise string

// The verdicts of a delta's noise test.
const (
	// Significant: the 99% interval of the change excludes zero and the
	// change is beyond the noise floor.
	Significant Noise = "significant"
	// WithinNoise: the change could be sampling error (or is below the
	// noise floor): not evidence of a difference.
	WithinNoise Noise = "within the noise"
	// Untested: no test applies (a maximum, a single measurement such as
	// inflation or server cost, too few values for the percentile); the
	// change is shown as measured.
	Untested Noise = "no test"
	// Unchanged: both sides hold the same value.
	Unchanged Noise = "unchanged"
	// Inconclusive: too few runs for a test across runs (one run per
	// side, or fewer than the test needs); Note says how many it needs.
	// It never breaks a bound unless Gate.FailOnInconclusive.
	Inconclusive Noise = "inconclusive"
)

// Gate says how CheckBounds holds a comparison to its bounds where the
// verdict cannot: SingleRun gates a one-run-per-side comparison on the
// figures as measured (the raw bound), FailOnInconclusive makes a bound
// the comparison could not decide fail (the commands' default: a gate
// that could not tell never passes unless told to).
type Gate struct {
	SingleRun          bool `json:"single_run"`
	FailOnInconclusive bool `json:"fail_on_inconclusive"`
	// Level is the two-sided level a bound's change must reach to break
	// it (GateLevel of the bounds and looks: the gate as a whole fails an
	// unchanged server at most 5% of the time); HoldLevel that of the
	// interval a bound is held by (GateLevel of the looks alone: a gate
	// passes a regression only if its regressed bound is held, so the 5%
	// against passing one needs no share among the bounds). 0 until the
	// bounds are checked.
	Level     float64 `json:"level"`
	HoldLevel float64 `json:"hold_level"`
}

// Delta is one figure in both results and its change.
type Delta struct {
	Metric string  `json:"metric"` // the bounds grammar's name: "read.p99", "class.png.errors"
	Label  string  `json:"label"`  // short, for a table column: "p99", "timeout"
	Unit   string  `json:"unit"`   // "ms", "%", "/s", "x", "MiB"
	Base   float64 `json:"base"`
	New    float64 `json:"new"`
	Change float64 `json:"change"` // New - Base, in Unit
	// Relative is Change / Base (0.1 = +10%); null, and RelativeOK
	// false, when Base is 0 and there is no relative change to speak of.
	Relative   *float64 `json:"relative"`
	RelativeOK bool     `json:"relative_ok"`
	Noise      Noise    `json:"noise"`
	// Low and High bound the interval of Change when it was tested: at
	// 1 − Alpha (99% within one pair; 95% across runs: the Hodges–Lehmann
	// interval, or for one run the other side's prediction interval).
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	Note string  `json:"note"` // why there is no test, or what qualifies it
	// BaseRuns and NewRuns are the figure in each run of its side, in the
	// order of Side.Runs (oldest first), of which Base and New are the
	// medians: what a view draws run by run, so its charts and its tables
	// show the same figures. Empty when a run did not measure it.
	BaseRuns []float64 `json:"base_runs,omitempty"`
	NewRuns  []float64 `json:"new_runs,omitempty"`
}

// LatencyDelta is one latency block (Block: "read", "read_ok", "turn",
// "service", "ttfb", "lag") compared: a delta for each of stats.LatencyStats.
type LatencyDelta struct {
	Block     string  `json:"block"`
	BaseCount int64   `json:"base_count"`
	NewCount  int64   `json:"new_count"`
	Deltas    []Delta `json:"deltas"`
}

// ClassDelta is one class of the mix compared. A class in only one result
// has InBase or InNew false and no deltas.
type ClassDelta struct {
	Class     string  `json:"class"`
	InBase    bool    `json:"in_base"`
	InNew     bool    `json:"in_new"`
	BaseReads int64   `json:"base_reads"`
	NewReads  int64   `json:"new_reads"`
	Read      []Delta `json:"read"`     // class.NAME.read.p50 … max, mean
	Errors    Delta   `json:"errors"`   // class.NAME.errors; the zero Delta (metric "") when a side had no reads
	Outcomes  []Delta `json:"outcomes"` // class.NAME.outcome.X, for outcomes either side saw
	// Inflation is the zero Delta (metric "") when either side decoded
	// no bytes: it has no inflation to compare.
	Inflation Delta `json:"inflation"`
}

// TurnSizeDelta is the turn latency of turns with Attachments attachments.
type TurnSizeDelta struct {
	Attachments int     `json:"attachments"`
	InBase      bool    `json:"in_base"`
	InNew       bool    `json:"in_new"`
	Turn        []Delta `json:"turn"` // turn_size.N.p50 … max, mean
}

// Content is what the two results' digests say about the bytes a read
// returns: URIs read by both whose content, MIME type or size changed.
// Digests are sampled (docs/results.md), so only URIs in both are
// compared; the others are counted.
type Content struct {
	Compared int             `json:"compared"` // URIs with a digest in both
	OnlyBase int             `json:"only_base"`
	OnlyNew  int             `json:"only_new"`
	Changed  []ContentChange `json:"changed"`
}

// ContentChange is one URI whose read returned something else. What lists
// "bytes", "mime" and/or "size".
type ContentChange struct {
	URI  string         `json:"uri"`
	What []string       `json:"what"`
	Base results.Digest `json:"base"`
	New  results.Digest `json:"new"`
}

// BoundCheck is one --fail-on bound held to the comparison. A bound is
// broken when the change goes past Limit in the bound's direction and is
// not within the noise: a change the runs cannot tell from sampling error
// never fails a release, and says so in Reason.
type BoundCheck struct {
	Bound  string  `json:"bound"`
	Metric string  `json:"metric"`
	Unit   string  `json:"unit"`
	Base   float64 `json:"base"`
	New    float64 `json:"new"`
	Limit  float64 `json:"limit"` // the farthest New may go
	Noise  Noise   `json:"noise"`
	Pass   bool    `json:"pass"`
	// Verdict is what every view prints: VerdictPass (held: the whole
	// interval within the limit, or, untested, the figures within it),
	// VerdictFail (broken: the estimate beyond it by a significant change),
	// or VerdictInconclusive (not answered: it fails the gate unless
	// Gate.FailOnInconclusive is false, and is no pass either way).
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// JudgedOn is the metric the bound was judged on when it is not the
	// bound's own: ab judges a read latency bound on service time at the
	// same percentile when the generator's lag was material (docs/compare.md).
	JudgedOn string `json:"judged_on,omitempty"`
	// Low and High are the interval of the new figure at level Alpha, from
	// the same test as New (the estimate) and P: one estimator decides the
	// bound (decide.go). Units and Pairs are what was tested ("windows",
	// "rounds" or "runs", and how many); P and Alpha are null and 0 when
	// no test applied.
	Low   float64  `json:"low"`
	High  float64  `json:"high"`
	Units string   `json:"units,omitempty"`
	Pairs int      `json:"pairs,omitempty"`
	P     *float64 `json:"p"`
	Alpha float64  `json:"alpha"`
}

// The verdicts of a bound check (BoundCheck.Verdict).
const (
	VerdictPass         = "pass"
	VerdictFail         = "fail"
	VerdictInconclusive = "inconclusive"
)

// Failed reports whether any bound was broken.
func (c *Comparison) Failed() bool {
	for _, b := range c.Bounds {
		if !b.Pass {
			return true
		}
	}
	return false
}

// Find returns the delta of a metric (its bounds-grammar name), so that
// a bound and the table show the same figure and the same noise verdict.
func (c *Comparison) Find(metric string) (Delta, bool) {
	for _, d := range c.AllDeltas() {
		if d.Metric == metric {
			return d, true
		}
	}
	return Delta{}, false
}

// AllDeltas are every delta of c, in report order: what a view lists
// when it looks for the significant ones.
func (c *Comparison) AllDeltas() []Delta {
	var out []Delta
	for _, l := range c.Latency {
		out = append(out, l.Deltas...)
	}
	for _, cl := range c.Classes {
		out = append(out, cl.Read...)
		if cl.Errors.Metric != "" { // a side without reads has no errors delta
			out = append(out, cl.Errors)
		}
		if cl.Inflation.Metric != "" { // a side without decoded bytes has no inflation delta
			out = append(out, cl.Inflation)
		}
		out = append(out, cl.Outcomes...)
	}
	for _, ts := range c.TurnSizes {
		out = append(out, ts.Turn...)
	}
	out = append(out, c.Rates...)
	out = append(out, c.Outcomes...)
	out = append(out, c.Inflation...)
	out = append(out, c.ServerCost...)
	out = append(out, c.ColdStart...)
	return append(out, c.Subscriptions...)
}

// MismatchError is Compare's refusal of two results of different
// workloads: comparing them would compare the workloads, not the servers.
type MismatchError struct {
	Differences []string
}

// Error lists the differences and how to compare anyway.
func (e *MismatchError) Error() string {
	return fmt.Sprintf("the two results ran different workloads (%s): compare them anyway with --force",
		strings.Join(e.Differences, "; "))
}

// BrokenBounds names each bound of bcs that was broken, with what moved:
// "read.p50=+10% (12.0ms -> 14.1ms, limit 13.2ms)", or the reason when no
// figure could be compared; none when every bound held. It is the one
// wording of a broken compare bound in an exit message (compare's, ab's).
func BrokenBounds(bcs []BoundCheck) []string {
	var out []string
	for _, b := range bcs {
		if b.Pass {
			continue
		}
		what := b.Reason
		if what == "" {
			what = fmt.Sprintf("%s -> %s, limit %s", numfmt.Value(b.Unit, b.Base), numfmt.Value(b.Unit, b.New), numfmt.Value(b.Unit, b.Limit))
		}
		out = append(out, b.Bound+" ("+what+")")
	}
	return out
}

// Hold holds a comparison of runs (compare's, ab's) to the bounds bs and,
// with content, to unchanged content, and stores the checks in it as the
// command cmd made them: the one place a comparison is gated. The newest
// run of each side, as CompareRuns took them, is what a bound on content
// and the views' charts read.
func (c *Comparison) Hold(cmd string, bs []bounds.Bound, base, nw []Labelled, content bool) (newestBase, newestNew *results.Result, err error) {
	c.Command = cmd
	bl, nl := newest(base, c.Base.Runs), newest(nw, c.New.Runs)
	if c.Bounds, err = CheckBounds(c, bs, bl, nl); err != nil {
		return nil, nil, err
	}
	if content {
		c.Bounds = append(c.Bounds, ContentCheck(c))
	}
	if cmd == "compare" {
		var rs []*results.Result
		for _, r := range append(slices.Clone(base), nw...) {
			rs = append(rs, r.Result)
		}
		c.Answer = AnswerOf(c, MedianPressure(rs))
	}
	return bl, nl, nil
}

// newest is the run of a side the comparison names last in its side's
// runs (oldest first).
func newest(runs []Labelled, labels []string) *results.Result {
	for _, r := range runs {
		if r.Label == labels[len(labels)-1] {
			return r.Result
		}
	}
	return runs[len(runs)-1].Result
}
