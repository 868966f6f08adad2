package readlog

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// TestWriter: every read told is one record, in the order told, with its
// class named, in JSON Lines or (by the file's extension) CSV with a
// header row; an existing file is refused unless forced.
func TestWriter(t *testing.T) {
	intended := time.Date(2026, 12, 7, 1, 2, 3, 4000, time.UTC)
	samples := []stats.ReadSample{
		{Class: 0, Outcome: stats.OK, Sent: true, Answered: true, Latency: 12345 * time.Microsecond, Service: 12 * time.Millisecond,
			Lag: 345 * time.Microsecond, URI: "sim:///a?size=1KiB", Intended: intended, Turn: 7, Session: 1,
			ByteCounts: stats.ByteCounts{WireBytes: 1500, DiskBytes: 1024}, Trace: [16]byte{1}},
		{Class: 1, Outcome: stats.Dropped, URI: "docs://old", Intended: intended, Turn: 8},
		{Class: 1, Outcome: stats.MethodNotFound, Sent: true, Unsettled: true, Settled: stats.NotFound, URI: "docs://b, \"quoted\"", Intended: intended, Turn: 9},
	}
	for _, name := range []string{"reads.jsonl", "reads.CSV"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			w, err := Create(path, false)
			if err != nil {
				t.Fatal(err)
			}
			warm, measured := w.Observe(stats.Ready{Classes: []stats.ClassInfo{{Name: "doc"}, {Name: "renamed"}}})
			warm.ObserveRead(samples[0])
			for _, s := range samples[1:] {
				measured.ObserveRead(s)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			measured.ObserveRead(samples[0]) // after Close: left out, no panic
			got := readBack(t, path)
			if len(got) != len(samples) {
				t.Fatalf("%d records, want %d", len(got), len(samples))
			}
			want := []map[string]string{
				{"phase": "warmup", "turn": "7", "session": "1", "class": "doc", "outcome": "ok", "sent": "true", "latency_ms": "12.345",
					"lag_ms": "0.345", "wire_bytes": "1500", "disk_bytes": "1024", "intended": "2026-12-07T01:02:03.000004Z",
					"trace_id": "01000000000000000000000000000000"},
				{"phase": "measured", "turn": "8", "class": "renamed", "outcome": "dropped", "sent": "false", "uri": "docs://old"},
				{"outcome": "method_not_found", "settled_as": "not_found", "uri": "docs://b, \"quoted\""},
			}
			for i, fields := range want {
				for k, v := range fields {
					if got[i][k] != v {
						t.Errorf("record %d: %s = %q, want %q", i, k, got[i][k], v)
					}
				}
			}
			if _, err := Create(path, false); err == nil || !strings.Contains(err.Error(), "--force") {
				t.Errorf("an existing file: %v, want it refused naming --force", err)
			}
			w, err = Create(path, true)
			if err != nil {
				t.Fatalf("--force: %v", err)
			}
			w.Close()
		})
	}
}

// TestCreateRefusesStdout: "-" is no file here (stdout holds the
// report), refused rather than made a file called "-".
func TestCreateRefusesStdout(t *testing.T) {
	if _, err := Create("-", false); err == nil || !strings.Contains(err.Error(), "standard output") {
		t.Errorf("Create(-): %v, want it refused", err)
	}
}

// readBack reads a file Writer wrote into records of strings by field.
func readBack(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]string
	if IsCSV(path) {
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rows[0], ",") != strings.Join(Fields, ",") {
			t.Fatalf("header %v, want %v", rows[0], Fields)
		}
		for _, row := range rows[1:] {
			m := map[string]string{}
			for i, v := range row {
				m[Fields[i]] = v
			}
			out = append(out, m)
		}
		return out
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var raw map[string]any
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		m := map[string]string{}
		for k, v := range raw {
			b, _ := json.Marshal(v)
			m[k] = strings.Trim(string(b), `"`)
			if s, ok := v.(string); ok {
				m[k] = s
			}
		}
		out = append(out, m)
	}
	return out
}
