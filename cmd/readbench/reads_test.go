package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/readbench/readbench/readlog"
)

// TestReadsExport: `run --reads FILE` writes one record per scheduled
// read (the warmup's marked so), every field present, and the measured
// records' outcomes count what the result's totals count; by a .csv name
// the same as CSV. Before, there was no per-read output at all.
func TestReadsExport(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"reads.jsonl", "reads.csv"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			_, stderr, code := readbench(t, dir, "run", "--reads", name, "--rate", "10/s", "--duration", "2s", "--warmup", "1s", "--out", "r.json", "-q")
			if code != 0 && code != 1 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			_ = stderr
			res := loadResult(t, filepath.Join(dir, "r.json"))
			records := readRecords(t, filepath.Join(dir, name))
			measured := map[string]int64{}
			var n, warm int64
			for _, r := range records {
				for _, f := range readlog.Fields {
					if _, ok := r[f]; !ok && f != "settled_as" && f != "trace_id" {
						t.Fatalf("a record lacks %q: %v", f, r)
					}
				}
				switch r["phase"] {
				case "measured":
					measured[r["outcome"]]++
					n++
				case "warmup":
					warm++
				default:
					t.Fatalf("phase %q", r["phase"])
				}
			}
			if n != res.Totals.Scheduled || warm == 0 {
				t.Errorf("%d measured records (%d warmup), the result scheduled %d", n, warm, res.Totals.Scheduled)
			}
			for o, c := range res.Totals.Outcomes {
				if measured[o] != c {
					t.Errorf("outcome %s: %d records, the result counts %d", o, measured[o], c)
				}
			}
		})
	}
}

// readRecords reads a --reads file, JSON Lines or CSV, into records of
// fields present (a JSON value's text).
func readRecords(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]string
	if readlog.IsCSV(path) {
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows[1:] {
			m := map[string]string{}
			for i, v := range row {
				if v != "" {
					m[rows[0][i]] = v
				}
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
			if s, ok := v.(string); ok {
				m[k] = s
			} else {
				b, _ := json.Marshal(v)
				m[k] = string(b)
			}
		}
		out = append(out, m)
	}
	return out
}
