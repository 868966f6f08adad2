package readlog

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/readbench/readbench/stats"
)

// queued is how many encoded reads may wait for the writer: a bound on
// memory (a few MiB at most), and enough that a disk's hiccup does not
// hold the recorder up. A writer that cannot keep up makes the recorder
// wait, never drops a read: the file has one record per scheduled read.
const queued = 4096

// Fields are the record's fields in the order of a CSV file's columns;
// a JSON line has the same names (docs/reads.md).
var Fields = []string{"phase", "turn", "session", "intended", "sent", "lag_ms", "latency_ms", "lower_bound",
	"service_ms", "ttfb_ms", "outcome", "settled_as", "class", "uri", "wire_bytes", "disk_bytes", "trace_id"}

// Record is one read as exported: what the run's recorder kept of it.
// Times are milliseconds as floats (microsecond resolution), as in the
// result; intended is RFC 3339 in UTC.
type Record struct {
	Phase      string  `json:"phase"` // "warmup" or "measured": only the measured reads are in the result's totals
	Turn       uint64  `json:"turn"`
	Session    int     `json:"session"`
	Intended   string  `json:"intended"`
	Sent       bool    `json:"sent"`
	LagMs      float64 `json:"lag_ms"`
	LatencyMs  float64 `json:"latency_ms"`
	LowerBound bool    `json:"lower_bound"`
	ServiceMs  float64 `json:"service_ms"`
	TTFBMs     float64 `json:"ttfb_ms"`
	Outcome    string  `json:"outcome"`
	SettledAs  string  `json:"settled_as,omitempty"`
	Class      string  `json:"class"`
	URI        string  `json:"uri"`
	WireBytes  int64   `json:"wire_bytes"`
	DiskBytes  int64   `json:"disk_bytes"`
	TraceID    string  `json:"trace_id,omitempty"`
}

// Of is the record of a read sample of the class named class in phase.
// A read whose outcome the run settles at its end (a -32601 worded as a
// missing resource) carries the outcome it settles to in SettledAs: the
// result counts it as one or the other once the run knows whether the
// server implements resources/read.
func Of(s stats.ReadSample, phase, class string) Record {
	r := Record{Phase: phase, Turn: s.Turn, Session: s.Session, Sent: s.Sent,
		LagMs: ms(s.Lag), LatencyMs: ms(s.Latency), LowerBound: s.LowerBound, ServiceMs: ms(s.Service), TTFBMs: ms(s.TTFB),
		Outcome: s.Outcome.String(), Class: class, URI: s.URI, WireBytes: s.WireBytes, DiskBytes: s.DiskBytes}
	if !s.Intended.IsZero() {
		r.Intended = s.Intended.UTC().Format(time.RFC3339Nano)
	}
	if s.Unsettled {
		r.SettledAs = s.Settled.String()
	}
	if s.Trace != ([16]byte{}) {
		r.TraceID = hex.EncodeToString(s.Trace[:])
	}
	return r
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// csvRow is r as a CSV row, in Fields' order.
func (r Record) csvRow() []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return []string{r.Phase, strconv.FormatUint(r.Turn, 10), strconv.Itoa(r.Session), r.Intended, strconv.FormatBool(r.Sent),
		f(r.LagMs), f(r.LatencyMs), strconv.FormatBool(r.LowerBound), f(r.ServiceMs), f(r.TTFBMs), r.Outcome, r.SettledAs,
		r.Class, r.URI, strconv.FormatInt(r.WireBytes, 10), strconv.FormatInt(r.DiskBytes, 10), r.TraceID}
}

// IsCSV says whether path names a CSV file (by its extension, any case):
// anything else is written as JSON Lines.
func IsCSV(path string) bool { return strings.EqualFold(filepath.Ext(path), ".csv") }

// Writer writes a run's reads to a file as they are recorded.
type Writer struct {
	f       *os.File
	buf     *bufio.Writer
	csv     bool
	lines   chan []byte
	done    chan struct{}
	classes []stats.ClassInfo
	err     error // the first write error, the writer's own
	once    sync.Once
	closed  error
	// mu guards ended: a read the recorder tells after Close (none
	// should come) is left out rather than sent on a closed queue.
	mu    sync.RWMutex
	ended bool
}

// Create opens path for a run's reads: a file that exists is refused
// unless force (as --out's is), before the run drives any load.
func Create(path string, force bool) (*Writer, error) {
	if path == "-" {
		return nil, errors.New("--reads: name a file: standard output holds the report")
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("--reads: %s exists (--force replaces it, or name another file)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("--reads: %w", err)
	}
	w := &Writer{f: f, buf: bufio.NewWriterSize(f, 64<<10), csv: IsCSV(path), lines: make(chan []byte, queued), done: make(chan struct{})}
	if w.csv {
		w.lines <- csvLine(Fields)
	}
	go w.write()
	return w, nil
}

// write is the one goroutine that writes: after a write error it keeps
// taking lines (the recorder must never wait on a dead file) and drops
// them; Close reports the error.
func (w *Writer) write() {
	defer close(w.done)
	for line := range w.lines {
		if w.err == nil {
			_, w.err = w.buf.Write(line)
		}
	}
	if w.err == nil {
		w.err = w.buf.Flush()
	}
}

// Observe is a driver.Options.Observe: it learns the classes' names and
// returns the observers of the warmup's and the measured phase's reads.
func (w *Writer) Observe(r stats.Ready) (warmup, measured stats.Observer) {
	w.classes = r.Classes
	return phase{w, "warmup"}, phase{w, "measured"}
}

// phase is the observer of one phase's recorder.
type phase struct {
	w    *Writer
	name string
}

// ObserveRead encodes the read and queues it; the recorder's lock is
// held, so it only encodes (about a microsecond) and hands over.
func (p phase) ObserveRead(s stats.ReadSample) {
	class := ""
	if s.Class >= 0 && s.Class < len(p.w.classes) {
		class = p.w.classes[s.Class].Name
	}
	r := Of(s, p.name, class)
	var line []byte
	if p.w.csv {
		line = csvLine(r.csvRow())
	} else {
		line, _ = json.Marshal(r) // plain strings and numbers: it cannot fail
		line = append(line, '\n')
	}
	p.w.mu.RLock()
	defer p.w.mu.RUnlock()
	if !p.w.ended {
		p.w.lines <- line // the writer drains while Close waits for the lock
	}
}

// ObserveTurn: turns are not exported (a read names its turn).
func (phase) ObserveTurn(stats.TurnSample) {}

func csvLine(fields []string) []byte {
	var b bytes.Buffer
	c := csv.NewWriter(&b)
	_ = c.Write(fields) // into memory: it cannot fail
	c.Flush()
	return b.Bytes()
}

// Close writes what is queued and closes the file, once (later calls
// return the first's error). Call it when the run's recorders are done.
func (w *Writer) Close() error {
	w.once.Do(func() {
		w.mu.Lock()
		w.ended = true
		close(w.lines)
		w.mu.Unlock()
		<-w.done
		err := w.err
		if cerr := w.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			w.closed = fmt.Errorf("--reads: writing %s: %w", w.f.Name(), err)
		}
	})
	return w.closed
}
