package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/targets"
)

// Format names the recording format in its header line; Version is the
// version this package writes and reads. A reader refuses a newer
// version rather than misread it.
const (
	Format  = "readbench/recording"
	Version = 1
)

// The type of each line.
const (
	TypeHeader  = "header"
	TypeRead    = "read"
	TypeMethods = "methods"
)

// Header is the first line of a recording: what it is and what was
// recorded.
type Header struct {
	Type    string `json:"type"` // "header"
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Upstream is the server the proxy forwarded to, its secrets masked
	// (targets.RedactSecrets).
	Upstream string `json:"upstream"`
	// Transport is how clients reached the proxy: "http" or "stdio".
	Transport string `json:"transport"`
	// Started is the instant every read's At counts from.
	Started time.Time `json:"started"`
	// RedactedURIs: every URI is a digest of the one read (RedactURI), so
	// the recording can make a workload's shape but cannot be replayed.
	RedactedURIs bool `json:"redacted_uris,omitempty"`
}

// Read is one resources/read that passed the proxy.
type Read struct {
	Type string `json:"type"` // "read"
	// AtMs is when the request reached the proxy, in milliseconds since
	// Header.Started.
	AtMs float64 `json:"at_ms"`
	// Session is the client's session, as s1, s2… in order of first
	// appearance (the id itself is never written); a stateless client
	// (no Mcp-Session-Id) is one session per recording.
	Session string `json:"session"`
	// Turn numbers the groups of reads a session's client sent together,
	// from 1, across the recording (turns.go).
	Turn int `json:"turn"`
	// GroupedBy says how the turn's reads were found to belong together,
	// the weakest evidence it needed (GroupedSingle, GroupedOrder,
	// GroupedOverlap, GroupedWindow), and Confidence how sure that is,
	// from 0 to 1 (group): the same on every read of a turn. Both are
	// absent from a recording made before they were written.
	GroupedBy  string   `json:"grouped_by,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	// URI is the URI read, its secrets masked (MaskURI), or its
	// redaction (RedactURI).
	URI string `json:"uri"`
	// Outcome is in the run's vocabulary (stats.Outcome names); a read
	// the client gave up on before an answer is cancelled, one whose
	// answer never came is transport.
	Outcome string `json:"outcome"`
	// Bytes is the decoded size of the answer's contents (disk bytes);
	// WireBytes the answer message as it passed.
	Bytes     int64  `json:"bytes"`
	WireBytes int64  `json:"wire_bytes"`
	MIME      string `json:"mime,omitempty"`
	Entries   int    `json:"entries,omitempty"`
	// Digest is "sha256:<hex>" of the decoded contents, as a readbench
	// read computes it (client.Answer.Digest); "" when not ok.
	Digest string `json:"digest,omitempty"`
	// Code is the JSON-RPC error code of an error answer.
	Code int `json:"code,omitempty"`
	// LatencyMs is request arrival to the answer's last byte through the
	// proxy, in milliseconds.
	LatencyMs float64 `json:"latency_ms"`
}

// Methods is the last line of a recording closed in order: how many
// messages of each method passed (reads included), and when it ended.
type Methods struct {
	Type   string           `json:"type"` // "methods"
	Counts map[string]int64 `json:"counts"`
	Ended  time.Time        `json:"ended"`
}

// Recording is a parsed recording file.
type Recording struct {
	Header Header
	Reads  []Read
	// Methods is nil for a recording that was not closed in order
	// (the proxy was killed): its reads are all there, its counts not.
	Methods *Methods
}

// MaskURI is uri with its secrets masked as the upstream's are
// (targets.RedactSecrets): a password in it (docs://user:xxxxx@host/…),
// the value of a secret-named query or fragment parameter (?token=xxxxx,
// api_key, access_token, X-Amz-Credential, sig, X-Amz-Signature…) and,
// unlike a target's, a user name alone (https://xxxxx@host/…: a URI read
// carries a token there as often as a name, GitHub's for one). A
// recording is written to be shared, and what is drawn from it (init
// --from's workload, a replay's result) is saved 0644; the mask is the
// same everywhere (targets.Masked), so a URI that carried a credential is
// replayed with it, which the server will most likely refuse.
func MaskURI(uri string) string {
	return uriUser.ReplaceAllString(targets.RedactSecrets(uri), "${1}"+targets.Masked+"@")
}

// uriUser matches the scheme and a lone user name of a URI's authority
// (no password: a password was masked first, and its user kept).
var uriUser = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s:]+@`)

// MaskSecrets masks every read's URI (MaskURI) and returns how many held a
// secret: a recording written before the proxy masked them, or by hand,
// never carries one into what is made of it.
func (rec *Recording) MaskSecrets() int {
	n := 0
	for i, rd := range rec.Reads {
		if m := MaskURI(rd.URI); m != rd.URI {
			rec.Reads[i].URI = m
			n++
		}
	}
	return n
}

// maxLine bounds one line of a recording (a URI is the only long field).
const maxLine = 1 << 20

// Parse reads a recording. An error names the line: a header that is
// missing, of another format or a newer version, a line of an unknown
// type, or a read without a URI or with an unknown outcome.
func Parse(r io.Reader) (*Recording, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	rec := &Recording{}
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := rec.parseLine(b, line); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if rec.Header.Type == "" {
		return nil, errors.New("line 1: not a recording: no header line")
	}
	return rec, nil
}

func (rec *Recording) parseLine(b []byte, line int) error {
	var kind struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &kind); err != nil {
		return fmt.Errorf("line %d: %w", line, err)
	}
	if rec.Header.Type == "" && kind.Type != TypeHeader {
		return fmt.Errorf("line %d: not a recording: the first line is not a %s header", line, Format)
	}
	switch kind.Type {
	case TypeHeader:
		if rec.Header.Type != "" {
			return fmt.Errorf("line %d: a second header", line)
		}
		var h Header
		if err := json.Unmarshal(b, &h); err != nil {
			return fmt.Errorf("line %d: header: %w", line, err)
		}
		if h.Format != Format {
			return fmt.Errorf("line %d: format %q, want %q", line, h.Format, Format)
		}
		if h.Version < 1 || h.Version > Version {
			return fmt.Errorf("line %d: version %d: this readbench reads versions 1 to %d", line, h.Version, Version)
		}
		rec.Header = h
	case TypeRead:
		var rd Read
		if err := json.Unmarshal(b, &rd); err != nil {
			return fmt.Errorf("line %d: read: %w", line, err)
		}
		if err := rd.check(); err != nil {
			return fmt.Errorf("line %d: read: %w", line, err)
		}
		rec.Reads = append(rec.Reads, rd)
	case TypeMethods:
		var m Methods
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("line %d: methods: %w", line, err)
		}
		rec.Methods = &m
	default:
		return fmt.Errorf("line %d: unknown line type %q", line, kind.Type)
	}
	return nil
}

// check refuses a read line that could not be replayed or counted.
func (rd Read) check() error {
	switch {
	case rd.URI == "":
		return errors.New("no uri")
	case rd.Session == "":
		return errors.New("no session")
	case rd.Turn < 1:
		return fmt.Errorf("turn %d: turns count from 1", rd.Turn)
	case !(rd.AtMs >= 0) || !(rd.LatencyMs >= 0): // NaN too
		return errors.New("at_ms and latency_ms must be numbers of at least 0")
	case rd.Bytes < 0 || rd.WireBytes < 0:
		return errors.New("bytes must be at least 0")
	}
	switch rd.GroupedBy {
	case "", GroupedSingle, GroupedOrder, GroupedOverlap, GroupedWindow:
	default:
		return fmt.Errorf("grouped_by %q: want single, order, overlap or window", rd.GroupedBy)
	}
	if c := rd.Confidence; c != nil && !(*c >= 0 && *c <= 1) {
		return fmt.Errorf("confidence %v: want a number from 0 to 1", *c)
	}
	if _, ok := stats.ParseOutcome(rd.Outcome); !ok {
		return fmt.Errorf("unknown outcome %q", rd.Outcome)
	}
	return nil
}

// Writer writes a recording, one line per call, each flushed at once so
// that a proxy killed mid-recording leaves every line it wrote whole.
// It is safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	w      *bufio.Writer
	counts map[string]int64
	err    error
}

// NewWriter writes the header line of h (Type, Format and Version set
// here) to w.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	h.Type, h.Format, h.Version = TypeHeader, Format, Version
	wr := &Writer{w: bufio.NewWriter(w), counts: map[string]int64{}}
	if err := wr.line(h); err != nil {
		return nil, err
	}
	return wr, nil
}

// Read writes one read line.
func (wr *Writer) Read(rd Read) error {
	rd.Type = TypeRead
	wr.mu.Lock()
	defer wr.mu.Unlock()
	return wr.line(rd)
}

// Count counts one message of method.
func (wr *Writer) Count(method string) {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	wr.counts[method]++
}

// Close writes the methods line. It does not close the underlying writer.
func (wr *Writer) Close(ended time.Time) error {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	counts := make(map[string]int64, len(wr.counts))
	for k, v := range wr.counts {
		counts[k] = v
	}
	return wr.line(Methods{Type: TypeMethods, Counts: counts, Ended: ended})
}

// line writes v as one line; the first error sticks.
func (wr *Writer) line(v any) error {
	if wr.err != nil {
		return wr.err
	}
	b, err := json.Marshal(v)
	if err != nil {
		wr.err = fmt.Errorf("recording: %w", err)
		return wr.err
	}
	b = append(b, '\n')
	if _, err := wr.w.Write(b); err != nil {
		wr.err = fmt.Errorf("recording: %w", err)
		return wr.err
	}
	if err := wr.w.Flush(); err != nil {
		wr.err = fmt.Errorf("recording: %w", err)
	}
	return wr.err
}
