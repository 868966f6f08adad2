//go:build !race

// -race multiplies the resident memory: this file is built only without
// it (make test-norace runs TestLoadAllPeakRSS), so its test never skips
// for the race detector.

package results

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readbench/readbench/internal/needs"
)

// loadPeakChild, set to a result's path, makes TestLoadAllPeakRSS the
// child that loads it with LoadAll and prints its peak RSS.
const loadPeakChild = "READBENCH_LOAD_PEAK_CHILD"

// TestLoadAllPeakRSS loads a generated result of about 64 MiB in a child
// process and writes it back as JSON (WriteJSON, what `report --format
// json` writes), and bounds the child's peak resident memory (VmHWM, which
// counts what the collector let the heap grow to, not only what was
// live): at most 1.5 times the file and 32 MiB for the process itself.
// LeanGC lowers the collector's target while a big file is loaded and
// rendered; at the default target, with Marshal (as before issue 47 item
// 22, and as the child run with GOGC=100 shows, logged) the heap grew to
// twice the decoded result, and the document was held encoded twice over:
// 959 MB of peak RSS for the table report of a 468 MB file (626 MB now),
// 2.5 GB for its JSON.
func TestLoadAllPeakRSS(t *testing.T) {
	if p := os.Getenv(loadPeakChild); p != "" {
		plain := os.Getenv("GOGC") != "" // as before: GOGC=100 and Marshal
		defer LeanGC([]string{p}, os.Getenv)()
		rs, err := LoadAll([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		if plain {
			b, err := rs[0].Marshal()
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Discard.Write(b)
		} else if err := rs[0].WriteJSON(io.Discard); err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("peak_kb " + strconv.FormatInt(peakRSS(t), 10) + "\n")
		return
	}
	if testing.Short() && !needs.InCI() {
		t.Skip("writes, loads and encodes a 64 MiB result")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		needs.Missing(t, "/proc/self/status (the peak RSS is read from Linux's VmHWM)", "run the tests on Linux")
	}
	path := filepath.Join(t.TempDir(), "big.json")
	size := writeBigResult(t, path, 64<<20)
	child := func(gogc string) int64 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLoadAllPeakRSS$", "-test.count=1")
		for _, e := range os.Environ() {
			if !strings.HasPrefix(e, "GOGC=") && !strings.HasPrefix(e, "GOMEMLIMIT=") {
				cmd.Env = append(cmd.Env, e)
			}
		}
		cmd.Env = append(cmd.Env, loadPeakChild+"="+path)
		if gogc != "" {
			cmd.Env = append(cmd.Env, "GOGC="+gogc)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		i := bytes.Index(out, []byte("peak_kb "))
		if i < 0 {
			t.Fatalf("child said no peak:\n%s", out)
		}
		f := strings.Fields(string(out[i:]))
		kb, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return kb << 10
	}
	lean, plain := child(""), child("100")
	limit := size*3/2 + 32<<20
	t.Logf("file %d bytes: peak RSS %d (%.2f×) with LeanGC and WriteJSON, %d (%.2f×) at GOGC=100 with Marshal; limit %d",
		size, lean, float64(lean)/float64(size), plain, float64(plain)/float64(size), limit)
	if lean > limit {
		t.Errorf("loading and encoding a %d-byte result peaked at %d bytes of RSS, want at most %d (1.5× the file and 32 MiB)", size, lean, limit)
	}
}

// peakRSS is this process's peak resident set size in KiB (VmHWM).
func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
