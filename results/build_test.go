package results

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// decodeMap saves r the way SaveFile does and reads it back as plain JSON,
// the view scripts and other tools have of it.
func decodeMap(t *testing.T, r *Result) (map[string]any, []byte) {
	t.Helper()
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, b
}

func near(got, want float64) bool { return math.Abs(got-want) <= math.Abs(want)/500 }

func TestBuildHasEveryKey(t *testing.T) {
	m, _ := decodeMap(t, fixture(t, false))
	// docs/results.md: all present in every result, never null.
	for _, k := range []string{"schema", "tool", "started", "ended", "partial", "workload", "target",
		"host", "totals", "read", "turn", "service", "ttfb", "classes", "cancellation", "shape",
		"server_cost", "digests", "timeline", "advice", "warmup"} {
		v, ok := m[k]
		if !ok || v == nil {
			t.Errorf("top-level key %q missing or null", k)
		}
	}
	if m["schema"] != Schema {
		t.Errorf("schema %v", m["schema"])
	}
	if m["started"] != "2026-11-30T02:28:47.123Z" {
		t.Errorf("started %v: want RFC 3339 with milliseconds", m["started"])
	}
	totals := m["totals"].(map[string]any)
	for _, k := range []string{"scheduled", "outcomes", "reads_per_s", "turns_per_s", "wire_bytes",
		"disk_bytes", "turns", "turn_ends", "errors", "error_rate", "asked_rate", "achieved_rate",
		"base64_bytes", "inflation", "wire_mb_per_s", "disk_mb_per_s", "identity_ok"} {
		if _, ok := totals[k]; !ok {
			t.Errorf("totals.%s missing", k)
		}
	}
	blocks := []any{m["read"], m["turn"], m["service"], m["ttfb"],
		m["cancellation"].(map[string]any)["cancel_to_late_ms"], m["warmup"].(map[string]any)["read"]}
	for _, c := range m["classes"].([]any) {
		blocks = append(blocks, c) // the class block is inline
	}
	for i, b := range blocks {
		for _, k := range []string{"count", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "mean_ms", "hdr"} {
			if _, ok := b.(map[string]any)[k]; !ok {
				t.Errorf("latency block %d: %s missing", i, k)
			}
		}
	}
	for _, k := range []string{"neither", "both", "uri_rewritten", "mime_missing", "mime_mismatch",
		"bad_base64", "empty_contents", "multi_entry"} {
		if _, ok := m["shape"].(map[string]any)[k]; !ok {
			t.Errorf("shape.%s missing", k)
		}
	}
}

func TestBuildFigures(t *testing.T) {
	r := fixture(t, false)
	tot := r.Totals
	if tot.Scheduled != 420 || !tot.IdentityOK {
		t.Errorf("scheduled %d identity %v: want 420, true", tot.Scheduled, tot.IdentityOK)
	}
	if len(tot.Outcomes) != int(stats.NumOutcomes) {
		t.Errorf("outcomes %v: want every name, zeros too", tot.Outcomes)
	}
	want := map[string]int64{"ok": 400, "expected_error": 10, "timeout": 5, "dropped": 5, "not_found": 0}
	for k, n := range want {
		if got, ok := tot.Outcomes[k]; !ok || got != n {
			t.Errorf("outcomes[%s] = %d (present %v), want %d", k, got, ok, n)
		}
	}
	// 415 reads were sent (the 5 dropped were not) in 10 s; 105 turns.
	if is(tot.ReadsPerS) != 41.5 || is(tot.TurnsPerS) != 10.5 || is(tot.AchievedRate) != 10.5 || tot.AskedRate != 10.5 {
		t.Errorf("rates: reads %v turns %v achieved %v asked %v", deref(tot.ReadsPerS), deref(tot.TurnsPerS), deref(tot.AchievedRate), tot.AskedRate)
	}
	if tot.Errors != 10 || is(tot.ErrorRate) != 10.0/420 {
		t.Errorf("errors %d rate %v: timeouts and drops count, expected errors do not", tot.Errors, deref(tot.ErrorRate))
	}
	okWire := int64(300*mdWire + 100*pngWire)
	wire := okWire + 10*180 // the expected errors' answers: on the wire, not in inflation
	disk := int64(300*mdDisk + 100*pngDisk)
	if tot.WireBytes != wire || tot.ErrorWire != 10*180 || tot.DiskBytes != disk || tot.Base64Bytes != 100*pngB64 {
		t.Errorf("bytes %d (not ok %d)/%d/%d", tot.WireBytes, tot.ErrorWire, tot.DiskBytes, tot.Base64Bytes)
	}
	if tot.Inflation == nil || *tot.Inflation != float64(okWire)/float64(disk) || is(tot.WireMBPerS) != float64(wire)/1e6/10 {
		t.Errorf("inflation %v, wire MB/s %v", numfmt.Opt(tot.Inflation, numfmt.Ratio), deref(tot.WireMBPerS))
	}
	if tot.TurnEnds != (TurnEnds{Complete: 100, Cut: 3, Failed: 2}) || tot.Turns != 105 {
		t.Errorf("turns %d %+v", tot.Turns, tot.TurnEnds)
	}

	// 410 answered reads: 300 at 20 ms, 100 at 100 ms, 10 at 5 ms.
	read := r.Read
	if read.Count != 410 || !near(read.P50Ms, 20) || !near(read.P90Ms, 100) || !near(read.P99Ms, 100) ||
		!near(read.MaxMs, 100) || !near(read.MeanMs, (300*20+100*100+10*5)/410.0) {
		t.Errorf("read block %+v", read)
	}
	if !near(r.Service.P50Ms, 10) || r.TTFB.Count != 410 {
		t.Errorf("service %+v ttfb %+v", r.Service, r.TTFB)
	}
	if r.Turn.Count != 105 || !near(r.Turn.P50Ms, 100) || !near(r.Turn.MaxMs, 5000) {
		t.Errorf("turn block %+v", r.Turn)
	}
	if ms := read.P50Ms * 1000; ms != math.Round(ms) {
		t.Errorf("p50 %v ms: want microsecond precision", read.P50Ms)
	}
	h, err := read.Histogram()
	if err != nil || h.Count() != 410 {
		t.Fatalf("hdr does not decode to the same histogram: %v", err)
	}

	md, png, pol := r.Classes[0], r.Classes[1], r.Classes[2]
	if md.Class != "markdown" || md.MIME != "text/markdown" || md.Reads != 305 || md.Count != 300 ||
		!near(md.P99Ms, 20) || md.Inflation == nil || *md.Inflation != 1.4 || md.Errors != 5 {
		t.Errorf("markdown %+v", md)
	}
	if png.Inflation == nil || *png.Inflation != float64(pngWire)/pngDisk || png.Base64Bytes != 100*pngB64 || !near(png.P50Ms, 100) {
		t.Errorf("screenshot %+v", png)
	}
	if pol.Inflation != nil || pol.Outcomes["expected_error"] != 10 || len(pol.Outcomes) != int(stats.NumOutcomes) {
		t.Errorf("renamed-policy %+v: inflation is 0 when nothing was decoded", pol)
	}
	if r.Cancellation.CancelToLateMs.Count != 0 || r.Cancellation.CancelToLateMs.HDR == "" {
		t.Errorf("no cancellations: want a zero block with a histogram, got %+v", r.Cancellation)
	}
	if r.Warmup.Scheduled != 40 || r.Warmup.Turns != 10 || !near(r.Warmup.Read.P50Ms, 50) {
		t.Errorf("warmup %+v: recorded apart", r.Warmup)
	}
}

func TestBuildWorkloadResolvedWithoutSecrets(t *testing.T) {
	r := fixture(t, false)
	m, b := decodeMap(t, r)
	for _, secret := range []string{secretPassword, secretHeader} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the saved result contains the secret %q", secret)
		}
	}
	w := m["workload"].(map[string]any)
	if h := w["headers"].(map[string]any); h["Authorization"] != workload.Redacted {
		t.Errorf("headers %v: the name stays, the value is redacted", h)
	}
	if got := w["target"]; got != "https://bench:xxxxx@staging.example.com/mcp" {
		t.Errorf("workload target %v", got)
	}
	if got := r.Target.Address; strings.Contains(got, secretPassword) {
		t.Errorf("target address %v", got)
	}
	load := w["load"].(map[string]any)
	if load["rate"] != "50/s" || load["rate_per_s"] != 50.0 || load["warmup"] != "2s" || load["duration"] != "10s" {
		t.Errorf("load %v", load)
	}
	stage := load["stages"].([]any)[0].(map[string]any)
	if stage["rate"] != "50/s" || stage["for"] != "10s" || stage["ramp"] != true {
		t.Errorf("stage %v", stage)
	}
	turn := w["turn"].(map[string]any)
	if turn["attachments"] != 4.0 || turn["deadline"] != "800ms" || turn["read_timeout"] != "5s" {
		t.Errorf("turn %v", turn)
	}
	mix := w["mix"].([]any)
	md := mix[0].(map[string]any)
	if md["size"] != "lognormal(8KiB,200KiB)" || md["delay"] != "lognormal(12ms,40ms)" || md["weight"] != 70.0 {
		t.Errorf("mix[0] %v", md)
	}
	if pol := mix[2].(map[string]any); pol["expect"] != "not_found" || pol["size"] != "" || pol["uris"] == nil {
		t.Errorf("mix[2] %v", pol)
	}
}

func TestBuildBrokenIdentityIsRecorded(t *testing.T) {
	r := fixture(t, true)
	if r.Totals.IdentityOK {
		t.Error("a read scheduled and never counted must clear identity_ok")
	}
	c := r.Cancellation
	if c.Cancelled != 7 || c.LateAnswers == nil || *c.LateAnswers != 2 || *c.WastedBytes != 2*pngWire || c.CancelToLateMs.Count != 2 || c.LateWatchMs != 250 {
		t.Errorf("cancellation %+v", c)
	}
	if c.Ignored == nil || *c.Ignored != 1 || *c.IgnoredBytes != pngWire || c.AllowanceMs == nil || *c.AllowanceMs != 25 {
		t.Errorf("of the late answers, one ignored the cancel (25 ms allowance): %+v", c)
	}
	if c := fixture(t, false).Cancellation; c.Observable || c.LateAnswers != nil || c.WastedBytes != nil || c.Ignored != nil || c.IgnoredBytes != nil || c.AllowanceMs != nil {
		t.Errorf("over Streamable HTTP late answers cannot be seen: want null, not 0; got %+v", c)
	}
	if r.Shape.MIMEMismatch != 3 || r.Shape.URIRewritten != 1 || !r.Partial {
		t.Errorf("shape %+v partial %v", r.Shape, r.Partial)
	}
}

func TestBuildRefusesMissingInput(t *testing.T) {
	if _, err := Build(fixtureMeta(false), nil, fixtureRun(false), nil); err == nil {
		t.Error("no workload: want an error")
	}
	if _, err := Build(fixtureMeta(false), fixtureWorkload(t), nil, nil); err == nil {
		t.Error("no measured run: want an error")
	}
	// No warmup and no measured time: no rate (null), never a division by zero.
	m := fixtureMeta(false)
	m.Measured = 0
	r, err := Build(m, fixtureWorkload(t), fixtureRun(false), nil)
	if err != nil {
		t.Fatal(err)
	}
	tot := r.Totals
	if tot.ReadsPerS != nil || tot.TurnsPerS != nil || tot.AchievedRate != nil || tot.WireMBPerS != nil || tot.DiskMBPerS != nil ||
		r.Warmup.Scheduled != 0 || r.Warmup.Read.HDR == "" ||
		len(r.Warmup.Outcomes) != int(stats.NumOutcomes) {
		t.Errorf("totals %+v warmup %+v", r.Totals, r.Warmup)
	}
}

// TestGeneratorBound: Build sets generator_bound from the run's own
// decision (JudgeGenerator, tested beside it): a lag that is half the
// read latency flags the run, one that is a third of it is jitter, stated
// in the generator block but not a limit. The reads carry their service
// time, as the driver records them.
func TestGeneratorBound(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		why      string
		lag, lat time.Duration
		want     bool
	}{
		{"a 6 ms lag beside 10 ms reads", 6 * ms, 10 * ms, true},
		{"a 100 µs lag", 100 * time.Microsecond, 10 * ms, false},
		{"a 3 ms lag beside 100 ms reads", 3 * ms, 100 * ms, false},
		{"a 30 ms lag beside 100 ms reads: jitter, not a limit", 30 * ms, 100 * ms, false},
	}
	for _, c := range cases {
		rec := stats.NewRecorder([]stats.ClassInfo{{Name: "markdown"}})
		for range 500 { // the 500 turns the fixture asked for
			rec.Schedule(1)
			rec.Read(stats.ReadSample{Outcome: stats.OK, Answered: true, Sent: true, Latency: c.lat, Service: c.lat - c.lag, Lag: c.lag})
			rec.Turn(stats.TurnSample{Latency: c.lat, End: stats.TurnComplete, Reads: 1})
		}
		r, err := Build(fixtureMeta(false), fixtureWorkload(t), rec.Phase(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.GeneratorBound != c.want || r.Lag.Count != 500 || r.Generator.Saturated {
			t.Errorf("%s: generator_bound %v (lag p99 %v ms, generator %+v), want %v", c.why, r.GeneratorBound, r.Lag.P99Ms, r.Generator, c.want)
		}
	}
}
