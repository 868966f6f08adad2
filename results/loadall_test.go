package results

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// loadPeakChild, set to a result's path, makes TestLoadAllPeakRSS the
// child that loads it with LoadAll and prints its peak RSS.
const loadPeakChild = "READBENCH_LOAD_PEAK_CHILD"

// TestLoadAllPeakRSS loads a generated result of about 64 MiB in a child
// process and bounds the child's peak resident memory (VmHWM, which counts
// what the collector let the heap grow to, not only what was live): at
// most 1.5 times the file and 32 MiB for the process itself. LoadAll
// lowers the collector's target while it loads a big file; at the default
// target (as before issue 47 item 22, and as the child run with GOGC=100
// shows, logged) the heap grew to about twice the decoded result: 959 MB
// of peak RSS to report a 468 MB file, 626 MB now.
func TestLoadAllPeakRSS(t *testing.T) {
	if p := os.Getenv(loadPeakChild); p != "" {
		if _, err := LoadAll([]string{p}, os.Getenv); err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("peak_kb " + strconv.FormatInt(peakRSS(t), 10) + "\n")
		return
	}
	if testing.Short() {
		t.Skip("writes and loads a 64 MiB result")
	}
	if raceDetector {
		t.Skip("-race multiplies the resident memory: run without it (go test -run TestLoadAllPeakRSS ./results/)")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status: the peak RSS is read from Linux's VmHWM")
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
	t.Logf("file %d bytes: peak RSS %d (%.2f×) with LoadAll's target, %d (%.2f×) at GOGC=100; limit %d",
		size, lean, float64(lean)/float64(size), plain, float64(plain)/float64(size), limit)
	if lean > limit {
		t.Errorf("loading a %d-byte result peaked at %d bytes of RSS, want at most %d (1.5× the file and 32 MiB)", size, lean, limit)
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
