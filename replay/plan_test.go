package replay

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload/yamlfile"
)

// recording builds a recording of turns of reads gap apart: turn k on
// session s(k%2+1) reads uris[k%len(uris)] and the ones after it.
func recording(turns, perTurn int, gap time.Duration, redacted bool) *record.Recording {
	uris := []string{"doc://text/1k", "doc://blob/4k", "doc://text/64k", "doc://missing"}
	rec := &record.Recording{Header: record.Header{Type: record.TypeHeader, Format: record.Format, Version: record.Version, Upstream: "http://127.0.0.1:1/mcp", RedactedURIs: redacted}}
	for k := range turns {
		for j := range perTurn {
			u := uris[(k+j)%len(uris)]
			rd := record.Read{Type: record.TypeRead, AtMs: float64(k)*float64(gap.Milliseconds()) + float64(j)*0.1, Session: fmt.Sprintf("s%d", k%2+1), Turn: k + 1,
				URI: u, Outcome: "ok", Bytes: 1024, MIME: "text/plain", LatencyMs: 3}
			switch {
			case strings.Contains(u, "blob"):
				rd.Bytes, rd.MIME = 4096, "application/octet-stream"
			case strings.Contains(u, "64k"):
				rd.Bytes = 65536
			case strings.Contains(u, "missing"):
				rd.Outcome, rd.Bytes, rd.MIME, rd.Code = "not_found", 0, "", -32002
			}
			rec.Reads = append(rec.Reads, rd)
		}
	}
	return rec
}

func TestNewPlanKeepsTurnsAndTimes(t *testing.T) {
	rec := recording(5, 3, 200*time.Millisecond, false)
	for _, tc := range []struct {
		speed float64
		span  time.Duration
	}{{1, 800 * time.Millisecond}, {4, 200 * time.Millisecond}, {0.5, 1600 * time.Millisecond}} {
		p, err := Prepare(rec, Options{Speed: tc.speed, File: "runs/a.jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		if p.Span != tc.span || len(p.Schedule.Turns) != 5 || p.Sessions != 2 || p.Workload.Sessions != 2 {
			t.Fatalf("speed %g: span %s, %d turns, %d sessions; want %s, 5, 2", tc.speed, p.Span, len(p.Schedule.Turns), p.Sessions, tc.span)
		}
		for k, turn := range p.Schedule.Turns {
			if turn.Session != k%2 || len(turn.Reads) != 3 {
				t.Errorf("turn %d: session %d, %d reads", k, turn.Session, len(turn.Reads))
			}
			for _, a := range turn.Reads {
				c := p.Workload.Mix[a.Class]
				if (a.URI == "doc://missing") != (c.Expect == "not_found") {
					t.Errorf("%s in class %s expecting %q", a.URI, c.Name, c.Expect)
				}
			}
		}
	}
	if _, err := Prepare(recording(2, 1, time.Second, true), Options{}); err == nil || !strings.Contains(err.Error(), "redacted") {
		t.Errorf("a redacted recording replayed: %v", err)
	}
}

func TestStarterParsesAndKeepsTheShape(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rec      *record.Recording
		contains []string
	}{
		{"short", recording(5, 3, 200*time.Millisecond, false), []string{"attachments: 3", "uris:", `"doc://missing"`, "expect: not_found", "rate: 5/1s", "duration: 1s", "target: \"http://127.0.0.1:1/mcp\""}},
		{"long-with-stages", recording(40, 2, 500*time.Millisecond, false), []string{"stages:", "attachments: 2", "rate: 40/19500ms   # the recorded mean: 2.05/s", "{rate: 4/1950ms, for: 1950ms}"}},
		{"redacted", recording(5, 1, time.Second, true), []string{"mime: \"text/plain\"", "size: lognormal(1024, 65536)", "mime: \"application/octet-stream\"\n    size: 4096"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Starter(tc.rec, "rec.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.contains {
				if !strings.Contains(string(out), want) {
					t.Errorf("no %q in\n%s", want, out)
				}
			}
		})
	}
}

// TestStarterRatesAreExact: init --from writes rates readbench reads
// (no exponent: a sparse recording's 5.556e-05/s was refused), each stage
// holding exactly the turns recorded in it (a quiet stage 0/s, never the
// old floor of 0.01/s: a recorded hour of 2 turns ran 36), so the stages
// add up to the recorded turns; the pacer starts exactly those (driver:
// TestConstantPacer).
// rateValue is a rate's value in a workload's text.
var rateValue = regexp.MustCompile(`rate: ([^,}#\n]*)`)

func TestStarterRatesAreExact(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rec    *record.Recording
		pauses int // stages of 0/s
	}{
		{"an hour of 2 turns", recording(2, 1, time.Hour, false), 8},
		{"ten hours of 2 turns", recording(2, 1, 10*time.Hour, false), 8},
		{"a day of 3 turns", recording(3, 2, 12*time.Hour, false), 7},
		{"40 turns 500ms apart", recording(40, 2, 500*time.Millisecond, false), 0},
		{"5 turns in a second", recording(5, 3, 200*time.Millisecond, false), 0},
		{"one turn", recording(1, 2, time.Second, false), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Starter(tc.rec, "rec.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range rateValue.FindAllStringSubmatch(string(out), -1) {
				if strings.ContainsAny(m[1], "eE") {
					t.Errorf("a rate in exponent notation: %q", m[0])
				}
			}
			w, err := yamlfile.Parse("starter", out)
			if err != nil {
				t.Fatal(err)
			}
			turns, pauses := 0.0, 0
			for _, st := range w.Load.Stages {
				turns += st.Rate.PerSecond * st.For.Seconds()
				if st.Rate.PerSecond == 0 {
					pauses++
				}
			}
			if len(w.Load.Stages) == 0 {
				turns = w.Load.Rate.PerSecond * w.Load.Duration.Seconds()
			}
			cls, index := classes(tc.rec)
			recorded := len(recordedTurns(tc.rec, cls, index))
			if math.Abs(turns-float64(recorded)) > 1e-9 || pauses != tc.pauses {
				t.Errorf("the workload schedules %v turns with %d pauses; recorded %d turns, want %d pauses\n%s", turns, pauses, recorded, tc.pauses, out)
			}
		})
	}
}

// TestNewPlanSparseRecording: a replay's own workload states its rate in
// a form readbench reads, however sparse the recording (2 turns in 10
// hours were "5.55556e-05/s", refused).
func TestNewPlanSparseRecording(t *testing.T) {
	for _, gap := range []time.Duration{time.Millisecond, time.Hour, 10 * time.Hour, 1000 * time.Hour} {
		p, err := Prepare(recording(2, 1, gap, false), Options{File: "rec.jsonl"})
		if err != nil {
			t.Fatalf("2 turns %s apart: %v", gap, err)
		}
		if got := p.Workload.Load.Rate.PerSecond * p.Workload.Load.Duration.Seconds(); math.Abs(got-2) > 1e-9 {
			t.Errorf("2 turns %s apart: the workload asks %v turns", gap, got)
		}
	}
}

func TestParseSpeed(t *testing.T) {
	for in, want := range map[string]float64{"1x": 1, "4x": 4, "0.5x": 0.5, "2": 2, " 3X ": 3} {
		if got, err := ParseSpeed(in); err != nil || got != want {
			t.Errorf("ParseSpeed(%q) = %g, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "0x", "-1x", "fast", "NaNx", "+Infx"} {
		if _, err := ParseSpeed(in); err == nil {
			t.Errorf("ParseSpeed(%q) took it", in)
		}
	}
}

func TestDiffCountsChangedAnswers(t *testing.T) {
	rec := recording(2, 2, time.Second, false) // 1k and blob, then blob and 64k
	rec.Reads[0].Digest = "sha256:aaaa"
	d := NewDiff(rec)
	d.Told("doc://text/1k", stats.OK, nil)       // no answer: compared by outcome, same
	d.Told("doc://blob/4k", stats.NotFound, nil) // changed outcome
	d.Told("doc://text/64k", stats.Timeout, nil) // cut by the replay: not compared
	d.Told("doc://unknown", stats.OK, nil)       // never recorded: not compared
	r := d.Result()
	if r.Compared != 2 || r.Differed != 1 || len(r.Changed) != 1 || r.Changed[0].URI != "doc://blob/4k" || r.Changed[0].Recorded != "ok 4096 B" || r.Changed[0].Replayed != "not_found" {
		t.Errorf("%+v", r)
	}
}
