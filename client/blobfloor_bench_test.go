//go:build linux && !race

package client

import (
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/readbench/readbench/stats"
)

// BenchmarkBlobFloor is the physical floor of the 1 MiB blob read of
// scripts/compare.sh (16 reads in flight of a 1 MiB PNG blob): what it
// costs this machine to move a 1 MiB blob's answer (1.33 MiB of base64 in
// JSON) through the kernel and, in the scan cases, to check it with the
// answer scanner every read uses. No Go poller, HTTP or session is in
// the way: a writer goroutine on its own thread writes the answer again
// and again with blocking write(2), and the benchmark's goroutine, locked
// to its thread, reads it with blocking read(2) into a buffer of
// readBufMax (256 KiB), each read asking for at most what the answer has
// left, as a Content-Length body is read. As in compare.sh, the writer
// (the server's side) runs on core 1 and the reader on core 0 (each
// thread pinned, where the machine has two cores).
//
// Cases: over loopback TCP (as compare.sh's reads go) and over a Unix
// socketpair; "count" only counts the bytes, "scan" feeds them to the
// answer scanner (JSON, exactly one of text/blob, the base64 check,
// decoded size, magic bytes) and checks its verdict, "scan-digest" hashes
// the decoded bytes too (SHA-256, where a workload asks for a digest).
//
// ns/op and MB/s are wall time, with writer and reader running at once on
// two cores. The reader's own CPU, the figure to set beside compare.sh's
// CPU per read (the generator's user + sys: it is only the reading side),
// is reader-µs/op, from getrusage(RUSAGE_THREAD) of the reader's thread
// around the loop (reader-sys-µs/op its kernel part); writer-µs/op is the
// writer's thread, the server's side, not counted in the floor;
// reads/op the read(2) calls per answer.
func BenchmarkBlobFloor(b *testing.B) {
	answer := blobAnswer(1 << 20)
	for _, tr := range []struct {
		name string
		pair func(testing.TB) (r, w int)
	}{{"tcp", tcpPair}, {"unix", unixPair}} {
		for _, mode := range []string{"count", "scan", "scan-digest"} {
			b.Run(tr.name+"/"+mode, func(b *testing.B) {
				r, w := tr.pair(b)
				blobFloor(b, r, w, answer, mode)
			})
		}
	}
}

func blobFloor(b *testing.B, r, w int, answer []byte, mode string) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer pin(0)()
	writer := make(chan syscall.Rusage, 1)
	go func() { // until the reader closes its end
		runtime.LockOSThread() // not unlocked: the pinned thread ends with the goroutine
		pin(1)
		var u0, u1 syscall.Rusage
		_ = syscall.Getrusage(rusageThread, &u0)
		for {
			for p := answer; len(p) > 0; {
				n, err := syscall.Write(w, p)
				if err != nil {
					_ = syscall.Getrusage(rusageThread, &u1)
					writer <- rusageSub(u1, u0)
					return
				}
				p = p[n:]
			}
		}
	}()
	buf := make([]byte, readBufMax)
	var s answerScanner
	scan, digest := mode != "count", mode == "scan-digest"
	b.SetBytes(int64(len(answer)))
	b.ReportAllocs()
	reads, answers := 0, 0
	var u0, u1 syscall.Rusage
	_ = syscall.Getrusage(rusageThread, &u0)
	for b.Loop() {
		if scan {
			s.reset(true, "x", digest)
		}
		for left := len(answer); left > 0; {
			n, err := syscall.Read(r, buf[:min(len(buf), left)])
			if err != nil || n == 0 {
				b.Fatal("read:", n, err)
			}
			if scan {
				s.feed(buf[:n])
			}
			left -= n
			reads++
		}
		if scan {
			if v := s.scanned("x", false); v.Outcome != stats.OK || v.DiskBytes != 1<<20 || digest != (v.Digest != "") {
				b.Fatal(v)
			}
		}
		answers++
	}
	_ = syscall.Getrusage(rusageThread, &u1)
	b.StopTimer()
	_ = syscall.Close(r) // the writer's next write fails
	wu := <-writer
	_ = syscall.Close(w)
	ru := rusageSub(u1, u0)
	per := func(d syscall.Timeval) float64 { return float64(d.Nano()) / 1e3 / float64(answers) }
	b.ReportMetric(per(ru.Utime)+per(ru.Stime), "reader-µs/op")
	b.ReportMetric(per(ru.Stime), "reader-sys-µs/op")
	b.ReportMetric(per(wu.Utime)+per(wu.Stime), "writer-µs/op")
	b.ReportMetric(float64(reads)/float64(answers), "reads/op")
}

// pin puts the calling thread, locked to its goroutine, on CPU cpu (on
// a machine of two cores or more) and returns what gives it back the CPUs
// it had.
func pin(cpu int) (unpin func()) {
	var set, all unix.CPUSet
	if runtime.NumCPU() < 2 || unix.SchedGetaffinity(0, &all) != nil {
		return func() {}
	}
	set.Set(cpu)
	_ = unix.SchedSetaffinity(0, &set)
	return func() { _ = unix.SchedSetaffinity(0, &all) }
}

// rusageThread is getrusage's RUSAGE_THREAD (Linux).
const rusageThread = 1

func rusageSub(a, b syscall.Rusage) syscall.Rusage {
	return syscall.Rusage{
		Utime: syscall.NsecToTimeval(a.Utime.Nano() - b.Utime.Nano()),
		Stime: syscall.NsecToTimeval(a.Stime.Nano() - b.Stime.Nano()),
	}
}

// tcpPair is a connected pair of blocking loopback TCP sockets.
func tcpPair(tb testing.TB) (r, w int) {
	ln := sock(tb)
	defer syscall.Close(ln)
	must(tb, syscall.Bind(ln, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}))
	must(tb, syscall.Listen(ln, 1))
	sa, err := syscall.Getsockname(ln)
	must(tb, err)
	w = sock(tb)
	must(tb, syscall.Connect(w, sa))
	r, _, err = syscall.Accept(ln)
	must(tb, err)
	return r, w
}

// unixPair is a connected pair of blocking Unix stream sockets.
func unixPair(tb testing.TB) (r, w int) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	must(tb, err)
	return fds[0], fds[1]
}

func sock(tb testing.TB) int {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	must(tb, err)
	return fd
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
