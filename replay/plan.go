package replay

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// Prepared is a recording made ready to replay: the workload the run is
// made in (its mix is the recording's classes, each naming its URIs)
// and the schedule the driver keeps instead of drawing turns.
type Prepared struct {
	Workload *workload.Workload
	Schedule *driver.Schedule
	// Span is the schedule's length, first turn to last, at its speed.
	Span time.Duration
	// Sessions is how many sessions the recording had.
	Sessions int
}

// Options say how to replay.
type Options struct {
	// Speed divides the recorded times (2: twice as fast); 0 is 1.
	Speed float64
	// Sessions is the number of sessions to open on the target (0: as
	// many as were recorded); recorded session k is sent on k modulo it.
	Sessions int
	// File is the recording's file name, for the workload's name.
	File string
}

// ParseSpeed reads a speed factor: "2x", "0.5x", "4" (more than 0).
func ParseSpeed(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(strings.ToLower(s)), "x"), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("speed %q: want a factor such as 1x, 2x or 0.5x", s)
	}
	return v, nil
}

// recordedTurns gathers rec's reads into their turns, in order of time,
// as the driver's schedule keeps them at the recorded speed: a turn at
// its first read's arrival (from the first turn's), on its session
// (numbered in the order the turns came), its reads in order of arrival
// as attachments of their classes (cls, index: classes(rec)). The
// recording's turn and the schedule's are one type: the replay only
// scales the times.
func recordedTurns(rec *record.Recording, cls []*class, index map[string]int) []driver.ScheduledTurn {
	first := map[int]float64{}  // a turn's first arrival, ms
	session := map[int]string{} // a turn's session: its first read's in the file
	for _, rd := range rec.Reads {
		if at, ok := first[rd.Turn]; !ok || rd.AtMs < at {
			first[rd.Turn] = rd.AtMs
		}
		if _, ok := session[rd.Turn]; !ok {
			session[rd.Turn] = rd.Session
		}
	}
	reads := slices.Clone(rec.Reads)
	slices.SortStableFunc(reads, func(a, b record.Read) int {
		if c := cmpFloat(first[a.Turn], first[b.Turn]); c != 0 {
			return c
		}
		if a.Turn != b.Turn {
			return a.Turn - b.Turn
		}
		return cmpFloat(a.AtMs, b.AtMs)
	})
	var out []driver.ScheduledTurn
	sessions := map[string]int{}
	for i, rd := range reads {
		if i == 0 || rd.Turn != reads[i-1].Turn {
			s, ok := sessions[session[rd.Turn]]
			if !ok {
				s = len(sessions)
				sessions[session[rd.Turn]] = s
			}
			at := time.Duration((first[rd.Turn] - first[reads[0].Turn]) * float64(time.Millisecond))
			out = append(out, driver.ScheduledTurn{At: at, Session: s})
		}
		a := workload.Attachment{Class: index[rd.URI], URI: rd.URI}
		if a.Class < len(cls) {
			a.Expect = cls[a.Class].expect
		}
		t := &out[len(out)-1]
		t.Reads = append(t.Reads, a)
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Prepare makes the replay of rec. A recording whose URIs were redacted
// cannot be replayed (init --from can still draw a workload from it).
func Prepare(rec *record.Recording, o Options) (*Prepared, error) {
	if rec.Header.RedactedURIs {
		return nil, errors.New("the recording's URIs were redacted (--redact-uris): it cannot be replayed; readbench init --from draws a workload from it")
	}
	if len(rec.Reads) == 0 {
		return nil, errors.New("the recording holds no resources/read")
	}
	speed := o.Speed
	if speed == 0 {
		speed = 1
	}
	cls, index := classes(rec)
	turns := recordedTurns(rec, cls, index)
	sessions := 0
	for i := range turns {
		sessions = max(sessions, turns[i].Session+1)
		turns[i].At = time.Duration(float64(turns[i].At) / speed)
	}
	sched := &driver.Schedule{Turns: turns}
	span := sched.Turns[len(sched.Turns)-1].At
	n := o.Sessions
	if n <= 0 {
		n = sessions
	}
	text := replayYAML(name(o.File), cls, turns, n, span)
	w, err := yamlfile.Parse(name(o.File)+".replay.yaml", text)
	if err != nil {
		return nil, fmt.Errorf("the replay's workload: %w", err)
	}
	return &Prepared{Workload: w, Schedule: sched, Span: span, Sessions: sessions}, nil
}

// name is the workload's name for a recording file.
func name(file string) string {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if base == "" || base == "." || base == "-" {
		return "replay"
	}
	return "replay-" + base
}

// replayYAML is the workload a replay runs in: the recording's classes
// with their URIs, its attachments per turn, its rate over its span (the
// schedule decides every start; the rate is what the result says was
// asked: its turns over the run's length), a duration that ends just
// after the last turn starts.
func replayYAML(name string, cls []*class, turns []driver.ScheduledTurn, sessions int, span time.Duration) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nsessions: %d\n", yamlString(name), sessions)
	length := span + time.Millisecond // the last turn starts inside the run
	// The rate as turns per the run's own length, exact and never in
	// exponent notation (a sparse recording's 5.55556e-05/s was refused).
	us := length.Microseconds()
	fmt.Fprintf(&b, "load:\n  rate: %d/%dus\n  duration: %dus\n", len(turns), us, us)
	writeAttachments(&b, turns)
	b.WriteString("mix:\n")
	for _, c := range cls {
		fmt.Fprintf(&b, "  - class: %s\n    weight: %d\n    uris:\n", yamlString(c.name), max(c.reads, 1))
		for _, u := range c.uris {
			fmt.Fprintf(&b, "      - %s\n", yamlString(u))
		}
		if c.expect != "" {
			fmt.Fprintf(&b, "    expect: %s\n", c.expect)
		}
	}
	return []byte(b.String())
}

// writeAttachments writes turn.attachments as the recorded distribution.
func writeAttachments(b *strings.Builder, turns []driver.ScheduledTurn) {
	counts := map[int]int{}
	for _, t := range turns {
		counts[min(len(t.Reads), workload.MaxAttachments)]++
	}
	keys := make([]int, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteString("turn:\n  attachments: ")
	if len(keys) == 1 {
		fmt.Fprintf(b, "%d\n", keys[0])
		return
	}
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%d: %d", k, counts[k])
	}
	b.WriteString("}\n")
}
