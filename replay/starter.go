package replay

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload/yamlfile"
)

// shapeAt is the shortest recording whose rate is written as stages (its
// shape); a shorter one gets its mean rate.
const shapeAt = 10 * time.Second

// stagesMax is how many stages the shape is cut into.
const stagesMax = 10

// Starter writes a workload drawn from rec (`readbench init --from`):
// one class per recorded MIME type (and one per error outcome, with its
// expect), weighted by its reads, naming the URIs read; the attachments
// per turn as recorded; the sessions; the mean rate over the recorded
// span and, for a recording of 10 s or more, its shape as up to ten
// stages. A recording whose URIs were redacted gets mime + size classes
// instead (size: the recorded median and p99), resolved from the target's
// listing when run. The workload is checked to parse: a starter that
// does not run is worse than none.
func Starter(rec *record.Recording, file string) ([]byte, error) {
	if len(rec.Reads) == 0 {
		return nil, fmt.Errorf("the recording holds no resources/read")
	}
	cls, index := classes(rec)
	turns := recordedTurns(rec, cls, index)
	span := turns[len(turns)-1].At
	sessions := map[string]bool{}
	for _, rd := range rec.Reads {
		sessions[rd.Session] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Drawn by readbench init --from %s: %d reads in %d turns on %d sessions over %s,\n",
		file, len(rec.Reads), len(turns), len(sessions), numfmt.Duration(span))
	fmt.Fprintf(&b, "# recorded from %s at %s.\n", rec.Header.Upstream, rec.Header.Started.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "name: %s\n", yamlString(strings.Replace(name(file), "replay", "recorded", 1)))
	if t, err := targets.Parse(rec.Header.Upstream); err == nil && !strings.Contains(rec.Header.Upstream, targets.Masked) && rec.Header.Upstream != "" {
		fmt.Fprintf(&b, "target: %s\n", yamlString(t.String()))
	} else {
		b.WriteString("# target: the upstream had secrets; set --target\n")
	}
	fmt.Fprintf(&b, "sessions: %d\n", len(sessions))
	writeLoad(&b, turns, span)
	writeAttachments(&b, turns)
	b.WriteString("mix:\n")
	for _, c := range cls {
		writeClass(&b, c, rec.Header.RedactedURIs)
	}
	out := []byte(b.String())
	if _, err := yamlfile.Parse("init --from "+file, out); err != nil {
		return nil, fmt.Errorf("the workload drawn from %s does not parse: %w", file, err)
	}
	return out, nil
}

// writeLoad writes the rate: the mean, and for a long enough recording
// its shape as stages of equal length. Every rate is written as turns per
// the very length it holds for ("2/1h", "1/6m", "0/s"), never as a
// rounded figure per second: a stage then starts exactly the turns the
// recording had in it (a rounded 0.002778/s over 6m started two), a
// quiet stage starts none, and no rate is written in exponent notation.
func writeLoad(b *strings.Builder, turns []driver.ScheduledTurn, span time.Duration) {
	if span < shapeAt {
		length := max(span, time.Second).Truncate(time.Millisecond)
		fmt.Fprintf(b, "load:\n  rate: %d/%s   # the recorded mean: %s/s\n", len(turns), dur(length), numfmt.Sig3(float64(len(turns))/length.Seconds()))
		fmt.Fprintf(b, "  duration: %s\n", dur(length))
		return
	}
	fmt.Fprintf(b, "load:\n  rate: %d/%s   # the recorded mean: %s/s\n", len(turns), dur(span.Truncate(time.Millisecond)), numfmt.Sig3(float64(len(turns))/span.Seconds()))
	n := stagesMax
	length := (span / time.Duration(n)).Truncate(time.Millisecond)
	counts := make([]int, n)
	for _, t := range turns {
		i := int(t.At / length)
		counts[min(i, n-1)]++
	}
	b.WriteString("  stages:   # the recorded rate's shape\n")
	for _, c := range counts {
		r := "0/s" // a pause: no turn was recorded here
		if c > 0 {
			r = fmt.Sprintf("%d/%s", c, dur(length))
		}
		fmt.Fprintf(b, "    - {rate: %s, for: %s}\n", r, dur(length))
	}
}

// dur writes a length of whole milliseconds in the largest unit that
// holds it exactly ("1h", "6m", "90s", "1950ms"): the same text serves as
// a stage's length and as the period of its rate.
func dur(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if d >= u.d && d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}

// writeClass writes one class of the mix.
func writeClass(b *strings.Builder, c *class, redacted bool) {
	slices.Sort(c.sizes)
	fmt.Fprintf(b, "  - class: %s   # %d reads of %d URIs", yamlString(c.name), c.reads, len(c.uris))
	if len(c.sizes) > 0 {
		fmt.Fprintf(b, "; size median %d B, p99 %d B", quantile(c.sizes, 0.5), quantile(c.sizes, 0.99))
	}
	fmt.Fprintf(b, "\n    weight: %d\n", max(c.reads, 1))
	switch {
	case !redacted:
		b.WriteString("    uris:\n")
		for _, u := range c.uris {
			fmt.Fprintf(b, "      - %s\n", yamlString(u))
		}
	case c.mime != "" && len(c.sizes) > 0:
		fmt.Fprintf(b, "    mime: %s\n    size: %s\n", yamlString(c.mime), sizeText(c.sizes))
	default: // redacted, and no type to resolve it by: a URI no server has
		fmt.Fprintf(b, "    uri: %s   # the recorded URIs were redacted\n", yamlString("readbench-redacted:///"+c.name))
	}
	if c.expect != "" {
		fmt.Fprintf(b, "    expect: %s\n", c.expect)
	}
}

// sizeText is a class's size: fixed when every read had one size, else a
// lognormal of the recorded median and p99.
func sizeText(sorted []int64) string {
	med, p99 := quantile(sorted, 0.5), quantile(sorted, 0.99)
	if sorted[0] == sorted[len(sorted)-1] || p99 <= med || med <= 0 {
		return strconv.FormatInt(med, 10)
	}
	return fmt.Sprintf("lognormal(%d, %d)", med, p99)
}
