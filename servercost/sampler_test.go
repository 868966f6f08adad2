package servercost

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

func TestCostParseProcStat(t *testing.T) {
	cases := []struct {
		file    string
		want    procStat
		wantErr bool
	}{
		{file: "cat.stat", want: procStat{PID: 17262, Comm: "cat", State: 'R', UTime: 7, STime: 3, RSSPages: 394}},
		{file: "weird.stat", want: procStat{PID: 4242, Comm: "my (weird) srv", State: 'S', UTime: 250, STime: 50, RSSPages: 12800}},
		{file: "zombie.stat", want: procStat{PID: 77, Comm: "a) b) c  ", State: 'Z', UTime: 1, STime: 2}},
		{file: "short.stat", wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "proc", c.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseProcStat(b)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if !c.wantErr && got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	for _, bad := range []string{"", "12 cat R", "x (cat) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21",
		"12 (cat) RR 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21",
		"12 (cat) R 1 2 3 4 5 6 7 8 9 10 -1 12 13 14 15 16 17 18 19 20 21", ") 12 (cat"} {
		if s, err := parseProcStat([]byte(bad)); err == nil {
			t.Errorf("parseProcStat(%q) = %+v, want an error", bad, s)
		}
	}
}

func TestCostParseVmRSS(t *testing.T) {
	cases := []struct {
		file    string
		rss     int64
		ok, err bool
	}{
		{file: "weird.status", rss: 51200 << 10, ok: true},
		{file: "kthread.status"},
		{file: "bad.status", err: true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "proc", c.file))
			if err != nil {
				t.Fatal(err)
			}
			rss, ok, err := parseVmRSS(b)
			if rss != c.rss || ok != c.ok || (err != nil) != c.err {
				t.Errorf("got %d %v %v, want %d %v error %v", rss, ok, err, c.rss, c.ok, c.err)
			}
		})
	}
}

// FuzzCostProcStat: stat is outside input (a process names itself). The
// parser must not panic, and whatever it accepts must survive a round trip.
func FuzzCostProcStat(f *testing.F) {
	for _, name := range []string{"cat.stat", "weird.stat", "zombie.stat", "short.stat"} {
		b, err := os.ReadFile(filepath.Join("testdata", "proc", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("1 ()) Z 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := parseProcStat(b)
		if err != nil {
			return
		}
		line := fmt.Sprintf("%d (%s) %c 0 0 0 0 0 0 0 0 0 0 %d %d 0 0 0 0 0 0 0 0 %d", s.PID, s.Comm, s.State, s.UTime, s.STime, s.RSSPages)
		again, err := parseProcStat([]byte(line))
		if err != nil || again != s {
			t.Fatalf("round trip of %+v: %+v, %v", s, again, err)
		}
	})
}

func TestCostParseAuxv(t *testing.T) {
	const w = strconv.IntSize / 8
	var b []byte
	for _, v := range []uint64{6, 4096, atClockTicks, 250, 0, 0, atClockTicks, 999} {
		if w == 4 {
			b = binary.NativeEndian.AppendUint32(b, uint32(v))
		} else {
			b = binary.NativeEndian.AppendUint64(b, v)
		}
	}
	if v, ok := parseAuxv(b, atClockTicks); !ok || v != 250 {
		t.Errorf("AT_CLKTCK = %d %v, want 250 (and nothing read past AT_NULL)", v, ok)
	}
	if _, ok := parseAuxv(b, 99); ok {
		t.Error("found a key that is not there")
	}
	if _, ok := parseAuxv(b[:w+1], 6); ok {
		t.Error("read a truncated pair")
	}
}

// TestCostClockTicks checks the tick unit against the kernel's other
// account of the same CPU time: a wrong CLK_TCK would be off by a factor.
func TestCostClockTicks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Log("only Linux has /proc; the sampler reports not available elsewhere")
		return
	}
	// Spin until the process has 300 ms of CPU (wall time is no measure
	// of it on a shared machine), for at most 20 s.
	var ru syscall.Rusage
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		spin(50 * time.Millisecond)
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		if time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) >= 300*time.Millisecond {
			break
		}
	}
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	st, err := parseProcStat(b)
	if err != nil {
		t.Fatal(err)
	}
	fromStat := ticksToDuration(st.UTime+st.STime, clockTicks())
	fromRusage := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	if fromRusage < 250*time.Millisecond {
		t.Fatalf("getrusage says %v after spinning for 300ms of CPU", fromRusage)
	}
	if d := fromStat - fromRusage; math.Abs(float64(d)) > 0.1*float64(fromRusage)+float64(50*time.Millisecond) {
		t.Errorf("/proc/self/stat says %v (CLK_TCK %d), getrusage %v", fromStat, clockTicks(), fromRusage)
	}
}

func spin(d time.Duration) {
	x := 1
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := range 1000 {
			x = x*31 + i
		}
	}
	runtime.KeepAlive(x)
}

const costBurnEnv = "READBENCH_TEST_COST_BURN"

// TestCostBurnHelper is not a test: re-executed with costBurnEnv set it is
// the child TestCostSamplerRealChild samples. It allocates and touches
// 50 MiB, spins 300 ms, says so, and stays alive until its stdin closes.
func TestCostBurnHelper(t *testing.T) {
	if os.Getenv(costBurnEnv) == "" {
		return
	}
	mem := make([]byte, 50<<20)
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = byte(i)
	}
	spin(300 * time.Millisecond)
	fmt.Println("burnt")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	runtime.KeepAlive(mem)
	os.Exit(0)
}

func TestCostSamplerRealChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		rep := Start(context.Background(), []int{os.Getpid()}, time.Millisecond).Stop()
		if rep.Available || rep.Reason == "" {
			t.Errorf("off Linux: %+v, want not available with a reason", rep)
		}
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := testproc.Own(t, exec.Command(exe, "-test.run=^TestCostBurnHelper$"))
	cmd.Env = append(os.Environ(), costBurnEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()
	start := time.Now()
	c := Start(context.Background(), []int{cmd.Process.Pid}, 50*time.Millisecond)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "burnt\n" {
		c.Stop()
		t.Fatalf("helper said %q, %v", line, err)
	}
	time.Sleep(120 * time.Millisecond) // a sample or two after the burn
	rep := c.Stop()
	if again := c.Stop(); len(again.Samples) != len(rep.Samples) {
		t.Error("a second Stop changed the report")
	}
	if !rep.Available {
		t.Fatalf("not available: %s", rep.Reason)
	}
	s := rep.Summarize(start, time.Now(), 2000)
	if s.CPU < 100*time.Millisecond {
		t.Errorf("CPU %v, want > 0.1 s (the child spun 300 ms)", s.CPU)
	}
	if s.RSSPeak < 40<<20 {
		t.Errorf("peak RSS %d MiB, want > 40 MiB (the child touched 50 MiB)", s.RSSPeak>>20)
	}
	if s.Samples < 3 || s.Processes != 1 {
		t.Errorf("%d samples of %d processes", s.Samples, s.Processes)
	}
	if s.CPUPer1000Reads != s.CPU/2 {
		t.Errorf("CPU per 1000 reads %v, want %v", s.CPUPer1000Reads, s.CPU/2)
	}
	t.Logf("CPU %v, RSS start %d peak %d end %d MiB, %d samples", s.CPU, s.RSSStart>>20, s.RSSPeak>>20, s.RSSEnd>>20, s.Samples)
}

func TestCostSamplerNothingToSample(t *testing.T) {
	for _, pids := range [][]int{nil, {0}} {
		rep := Start(context.Background(), pids, time.Millisecond).Stop()
		if rep.Available || rep.Reason == "" {
			t.Errorf("pids %v: %+v, want not available with a reason", pids, rep)
		}
		s := rep.Summarize(time.Now(), time.Now().Add(time.Second), 10)
		if s.Available || s.Reason != rep.Reason || s.CPU != 0 {
			t.Errorf("pids %v: summary %+v", pids, s)
		}
	}
}

// TestCostSamplerContextEnds: a cancelled run ends the sampling, and Stop
// still returns what was seen.
func TestCostSamplerContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := Start(ctx, []int{os.Getpid()}, 10*time.Millisecond)
	time.Sleep(30 * time.Millisecond)
	cancel()
	<-c.done
	if rep := c.Stop(); runtime.GOOS == "linux" && (!rep.Available || len(rep.Samples) < 2) {
		t.Errorf("%+v", rep)
	}
}

func TestCostSummarize(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var ss []Sample
	for i := range 61 { // a minute, a sample a second: 1 CPU-second per second, +1 MiB every 6 s
		ss = append(ss, Sample{At: t0.Add(time.Duration(i) * time.Second), CPU: time.Duration(i) * time.Second,
			RSS: 100<<20 + int64(i)*(1<<20)/6})
	}
	ss[30].RSS = 500 << 20 // a spike
	rep := Trace{Available: true, PIDs: []int{1, 2}, Samples: ss}
	s := rep.Summarize(t0.Add(10*time.Second+500*time.Millisecond), t0.Add(40*time.Second+500*time.Millisecond), 3000)
	if s.CPU != 30*time.Second {
		t.Errorf("CPU %v, want 30s", s.CPU)
	}
	if s.CPUPer1000Reads != 10*time.Second {
		t.Errorf("per 1000 reads %v", s.CPUPer1000Reads)
	}
	if s.RSSStart != 100<<20 || s.RSSEnd != 110<<20 || s.RSSPeak != 500<<20 || s.RSSGrowth != 10<<20 {
		t.Errorf("RSS %d %d %d %d", s.RSSStart, s.RSSPeak, s.RSSEnd, s.RSSGrowth)
	}
	if !s.RSSSlope.OK || math.Abs(s.RSSSlope.MiBPerMin-10) > 0.5 { // the spike sits mid-run and barely tilts the fit
		t.Errorf("slope %+v, want about 10 MiB/min", s.RSSSlope)
	}
	if s.Samples != 61 || s.Processes != 2 {
		t.Errorf("%d samples, %d processes", s.Samples, s.Processes)
	}
	// Bounds outside the samples clamp; no reads gives no per-read figure.
	s = rep.Summarize(t0.Add(-time.Hour), t0.Add(time.Hour), 0)
	if s.CPU != 60*time.Second || s.CPUPer1000Reads != 0 {
		t.Errorf("clamped CPU %v, per read %v", s.CPU, s.CPUPer1000Reads)
	}
}

func TestCostThin(t *testing.T) {
	c := &Sampler{}
	for i := range 9 {
		c.rep.Samples = append(c.rep.Samples, Sample{CPU: time.Duration(i)})
	}
	c.thin()
	var got []time.Duration
	for _, s := range c.rep.Samples {
		got = append(got, s.CPU)
	}
	if fmt.Sprint(got) != "[0s 2ns 4ns 6ns 8ns]" {
		t.Errorf("thinned to %v", got)
	}
}

// TestCostColdStartFirstRead: the first read is the earliest sent, not the
// first to finish, whatever order the hooks are called in.
func TestCostColdStartFirstRead(t *testing.T) {
	c := NewColdStartRecorder()
	base := c.epoch.Add(time.Second)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sent := base.Add(time.Duration(i) * time.Millisecond)
			c.Read(sent, sent.Add(time.Duration(100-i)*time.Millisecond))
		}()
	}
	wg.Wait()
	cs, ok := c.Result()
	if cs.FirstRead != 100*time.Millisecond || ok || cs.Handshake != 0 { // no Session: no process readbench spawned
		t.Errorf("%+v %v, want FirstRead 100ms and no stdio session", cs, ok)
	}
	var nilRec *ColdStartRecorder
	nilRec.Read(base, base)
	nilRec.Session(0, 0)
	if _, ok := nilRec.Result(); ok {
		t.Error("a nil recorder recorded")
	}
}
