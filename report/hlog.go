package report

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/readbench/readbench/results"
	"github.com/readbench/readbench/stats"
)

// WriteHlog writes the histograms of r in the HdrHistogram interval log
// format (version 1.3), the file HdrHistogram's own tools read:
// HistogramLogProcessor, HdrHistogramVisualizer, hdrhistogram-go's
// HistogramLogReader. Each latency block is one interval line covering the
// measured phase, tagged by what it measures: Tag=read, service, ttfb,
// turn, warmup.read, cancel_to_late, and class:<name> per class.
//
// The values are microseconds, as our histograms record them, and are not
// rescaled: rescaling would change the buckets, and the lines would no
// longer decode to the result's histograms. HdrHistogram's tools assume
// nanoseconds by default, so the log says so in a comment: with
// HistogramLogProcessor, pass -outputValueUnitRatio 1000 to get
// milliseconds. The Interval_Max column is written in milliseconds.
//
// The header and comments go through the library's HistogramLogWriter.
// The interval lines are written here in the format of HdrHistogram's Java
// writer (seconds with 3 decimals), because the Go writer takes the times
// from the histogram in whole milliseconds yet prints them as seconds, and
// its max ratio cannot be set from outside the package; its BaseTime line
// is also spelled "Basetime", which the readers do not recognise.
func WriteHlog(w io.Writer, r *results.Result) error {
	lw := hdrhistogram.NewHistogramLogWriter(w)
	startMs := r.Started.UnixMilli()
	measuredStart := max(r.Ended.Sub(r.Started.Time).Seconds()-r.Totals.MeasuredS, 0)
	header := []func() error{
		lw.OutputLogFormatVersion,
		func() error {
			return lw.OutputComment(fmt.Sprintf("[StartTime: %.3f (seconds since epoch), %s]",
				float64(startMs)/1000, r.Started.UTC().Format("2006-01-02T15:04:05.000Z07:00")))
		},
		func() error {
			return lw.OutputComment(fmt.Sprintf("[BaseTime: %.3f (seconds since epoch)]", float64(startMs)/1000))
		},
		func() error {
			return lw.OutputComment(" readbench " + hlogSafe(r.Tool.Version) + ", workload " + hlogSafe(r.Workload.Name) +
				": latency values in microseconds (HistogramLogProcessor -outputValueUnitRatio 1000 for ms)")
		},
		lw.OutputLegend,
	}
	for _, f := range header {
		if err := f(); err != nil {
			return fmt.Errorf("report: hlog: %w", err)
		}
	}
	for _, b := range hlogBlocks(r) {
		if err := writeInterval(w, b.tag, measuredStart, r.Totals.MeasuredS, b.l); err != nil {
			return err
		}
	}
	return nil
}

// hlogBlock is one latency block and its tag.
type hlogBlock struct {
	tag string
	l   stats.Latency
}

// hlogBlocks lists the blocks written, in a fixed order; the warmup's
// histogram is kept apart by its tag as it is in the result.
func hlogBlocks(r *results.Result) []hlogBlock {
	bs := []hlogBlock{{"read", r.Read}, {"service", r.Service}, {"ttfb", r.TTFB}, {"turn", r.Turn}}
	for _, c := range r.Classes {
		bs = append(bs, hlogBlock{"class:" + hlogSafe(c.Class), c.Latency})
	}
	return append(bs, hlogBlock{"warmup.read", r.Warmup.Read}, hlogBlock{"cancel_to_late", r.Cancellation.CancelToLateMs})
}

// writeInterval writes one interval line: Tag=T,start,length,max,payload.
// The histogram is decoded through Latency.Histogram first, which checks
// the encoding, so a damaged file is refused before the library sees it.
func writeInterval(w io.Writer, tag string, start, length float64, l stats.Latency) error {
	h, err := l.Histogram()
	if err != nil {
		return fmt.Errorf("report: hlog: %s: %w", tag, err)
	}
	maxMs := float64(h.Max()) / float64(time.Millisecond)
	// l.HDR is already the V2 compressed base64 payload the format carries.
	if _, err := fmt.Fprintf(w, "Tag=%s,%.3f,%.3f,%.3f,%s\n", tag, start, length, maxMs, l.HDR); err != nil {
		return fmt.Errorf("report: hlog: %w", err)
	}
	return nil
}

// hlogSafe makes a name usable in a tag or a comment: the format ends a
// tag at a comma and a line at a newline, so those, blanks and control
// characters become '_'. An empty name stays recognisable as "-".
func hlogSafe(s string) string {
	if s == "" {
		return "-"
	}
	return strings.Map(func(c rune) rune {
		if c == ',' || unicode.IsSpace(c) || unicode.IsControl(c) {
			return '_'
		}
		return c
	}, s)
}
