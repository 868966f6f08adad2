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

// Plan is a recording made ready to replay: the workload the run is
// made in (its mix is the recording's classes, each naming its URIs)
// and the schedule the driver keeps instead of drawing turns.
type Plan struct {
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

// rturn is one recorded turn.
type rturn struct {
	id      int
	session string
	at      float64 // ms: its first read's arrival
	reads   []record.Read
}

// recordedTurns gathers rec's reads into their turns, in order of time.
func recordedTurns(rec *record.Recording) []*rturn {
	byID := map[int]*rturn{}
	var list []*rturn
	for _, rd := range rec.Reads {
		t := byID[rd.Turn]
		if t == nil {
			t = &rturn{id: rd.Turn, session: rd.Session, at: rd.AtMs}
			byID[rd.Turn] = t
			list = append(list, t)
		}
		t.at = min(t.at, rd.AtMs)
		t.reads = append(t.reads, rd)
	}
	for _, t := range list {
		slices.SortStableFunc(t.reads, func(a, b record.Read) int { return cmpFloat(a.AtMs, b.AtMs) })
	}
	slices.SortStableFunc(list, func(a, b *rturn) int {
		if c := cmpFloat(a.at, b.at); c != 0 {
			return c
		}
		return a.id - b.id
	})
	return list
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

// NewPlan makes the replay of rec. A recording whose URIs were redacted
// cannot be replayed (init --from can still draw a workload from it).
func NewPlan(rec *record.Recording, o Options) (*Plan, error) {
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
	turns := recordedTurns(rec)
	sessions := map[string]int{}
	sched := &driver.Schedule{}
	t0 := turns[0].at
	for _, t := range turns {
		s, ok := sessions[t.session]
		if !ok {
			s = len(sessions)
			sessions[t.session] = s
		}
		st := driver.ScheduledTurn{At: time.Duration((t.at - t0) / speed * float64(time.Millisecond)), Session: s}
		for _, rd := range t.reads {
			c := index[rd.URI]
			st.Reads = append(st.Reads, workload.Attachment{Class: c, URI: rd.URI, Expect: cls[c].expect})
		}
		sched.Turns = append(sched.Turns, st)
	}
	span := sched.Turns[len(sched.Turns)-1].At
	n := o.Sessions
	if n <= 0 {
		n = len(sessions)
	}
	text := replayYAML(name(o.File), cls, turns, n, span)
	w, err := yamlfile.Parse(name(o.File)+".replay.yaml", text)
	if err != nil {
		return nil, fmt.Errorf("the replay's workload: %w", err)
	}
	return &Plan{Workload: w, Schedule: sched, Span: span, Sessions: len(sessions)}, nil
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
func replayYAML(name string, cls []*class, turns []*rturn, sessions int, span time.Duration) []byte {
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
func writeAttachments(b *strings.Builder, turns []*rturn) {
	counts := map[int]int{}
	for _, t := range turns {
		counts[min(len(t.reads), workload.MaxAttachments)]++
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
