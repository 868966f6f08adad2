package results

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
)

// writeBigResult writes a result of about size bytes to path, grown the
// way a real run's grows: a soak run's timeline (one entry per second,
// each with the histogram of that second's reads) and a workload of many
// classes (each with its latency blocks). The file is generated here,
// at test time, from testdata/timeline.json, so nothing big is kept in
// the repository. It returns the file's size.
func writeBigResult(t testing.TB, path string, size int64) int64 {
	t.Helper()
	r, err := Load(filepath.Join("testdata", "timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Histograms of a second's reads: lognormal-ish latencies, a few
	// hundred values each, as a run at tens of turns per second records.
	rng := rand.New(rand.NewPCG(47, 22))
	hdrs := make([]string, 64)
	for i := range hdrs {
		h := stats.NewHistogram()
		for range 200 + rng.IntN(400) {
			h.Record(time.Duration(2000+rng.ExpFloat64()*float64(10+i)*1000) * time.Microsecond)
		}
		if hdrs[i], err = h.Encode(); err != nil {
			t.Fatal(err)
		}
	}
	// A tenth of the size in classes, the rest in the timeline.
	one := r.Classes[0]
	oneLen := int64(len(mustMarshal(t, one)))
	for i := int64(0); i*oneLen < size/10; i++ {
		c := one
		c.Class = "class-" + strconv.FormatInt(i, 10)
		c.Latency.HDR = hdrs[i%int64(len(hdrs))]
		r.Classes = append(r.Classes, c)
	}
	sec := r.Timeline[len(r.Timeline)-1]
	sec.HDR = hdrs[0]
	secLen := int64(len(mustMarshal(t, sec)))
	for i := int64(0); i*secLen < size*9/10; i++ {
		s := sec
		s.T = int(i) + len(r.Timeline)
		s.HDR = hdrs[i%int64(len(hdrs))]
		s.Reads = int64(100 + i%50)
		r.Timeline = append(r.Timeline, s)
	}
	if err := r.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLoadBigResultMemory loads a generated result of about 24 MiB and
// bounds what Load costs in memory, relative to the file's size: the
// bytes it allocates to read and decode the file (runtime.MemStats.TotalAlloc,
// less what its check of every histogram allocates: a fixed cost per
// histogram, garbage at once), and the bytes still held once it returned
// (the decoded result alone). Before issue 47 item 22, Load read the file
// whole, copied every top-level value once more to find the schema, then
// decoded: it allocated about three times the file, and held the file
// twice over while it decoded. Set READBENCH_BIG_RESULT=PATH (and
// READBENCH_BIG_RESULT_MB, default 400) to write a big file for
// `/usr/bin/time -v readbench report PATH`; the measure runs after it.
func TestLoadBigResultMemory(t *testing.T) {
	if out := os.Getenv("READBENCH_BIG_RESULT"); out != "" {
		mb, _ := strconv.Atoi(os.Getenv("READBENCH_BIG_RESULT_MB"))
		if mb <= 0 {
			mb = 400
		}
		n := writeBigResult(t, out, int64(mb)<<20)
		t.Logf("wrote %s: %d bytes (the measure below runs too)", out, n)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	size := writeBigResult(t, path, 24<<20)
	for _, tc := range []struct {
		name string
		// allocated and retained bound the bytes decoding allocates and
		// the heap held after Load, as multiples of the file's size.
		allocated, retained float64
	}{
		{"stream", 2.0, 1.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after, held, checked runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r, err := Load(path)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&held)
			if err := r.check(); err != nil { // what the check alone allocates
				t.Fatal(err)
			}
			runtime.ReadMemStats(&checked)
			runtime.KeepAlive(r)
			check := float64(checked.TotalAlloc - held.TotalAlloc)
			alloc := float64(after.TotalAlloc-before.TotalAlloc) - check
			kept := float64(int64(held.HeapAlloc) - int64(before.HeapAlloc))
			t.Logf("file %d bytes (%d seconds, %d classes): decoding allocated %.0f (%.2f×), retained %.0f (%.2f×); the histogram check %.0f",
				size, len(r.Timeline), len(r.Classes), alloc, alloc/float64(size), kept, kept/float64(size), check)
			if alloc > tc.allocated*float64(size) {
				t.Errorf("Load allocated %.2f× the file's size to decode it, want at most %.1f×", alloc/float64(size), tc.allocated)
			}
			if kept > tc.retained*float64(size) {
				t.Errorf("Load retained %.2f× the file's size, want at most %.1f×", kept/float64(size), tc.retained)
			}
			if len(r.Timeline) < 1000 || len(r.Classes) < 100 {
				t.Errorf("loaded %d seconds and %d classes: the file was not read whole", len(r.Timeline), len(r.Classes))
			}
		})
	}
}

// TestLoadAgreesWithParse: Load, which decodes a file as it reads it, and
// Parse, which decodes it whole, say the same of every file: the same
// result, or the same error with its line and column.
func TestLoadAgreesWithParse(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(good)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, data string
		ok         bool
	}{
		{"as saved", text, true},
		{"keys in another case", strings.Replace(text, `"timeline"`, `"Timeline"`, 1), true},
		{"a repeated key, the last wins", strings.Replace(text, `"classes":`, `"partial": true, "classes":`, 1), true},
		{"timeline null", strings.Replace(text, `"timeline": [`, `"timeline": null, "x": [`, 1), true},
		{"schema in another case", strings.Replace(text, `"schema"`, `"SCHEMA"`, 1), false},
		{"another schema", strings.Replace(text, Schema, "readbench/result/v9", 1), false},
		{"trailing bytes", text + "{}", false},
		{"a timeline entry of the wrong type", strings.Replace(text, `"t_s": 3`, `"t_s": "3"`, 1), false},
		{"a class that is not an object", strings.Replace(text, `"classes": [`, `"classes": [7, `, 1), false},
		{"cut short", text[:len(text)/2], false},
		{"empty", "", false},
		{"a list", "[]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			want, wantErr := Parse(path, []byte(tc.data))
			got, gotErr := Load(path)
			if (gotErr == nil) != tc.ok || (wantErr == nil) != tc.ok {
				t.Fatalf("Load: %v; Parse: %v; want ok %v", gotErr, wantErr, tc.ok)
			}
			if !tc.ok {
				if gotErr.Error() != wantErr.Error() {
					t.Errorf("Load said %q, Parse %q", gotErr, wantErr)
				}
				return
			}
			a, err := got.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			b, err := want.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if string(a) != string(b) {
				t.Errorf("Load and Parse decoded different results")
			}
		})
	}
}
