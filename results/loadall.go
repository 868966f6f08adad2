package results

import (
	"os"
	"runtime/debug"
)

// leanFrom and leanGC: LeanGC lowers the garbage collector's target to
// leanGC percent while it loads files that add up to leanFrom bytes or
// more. Decoding a result only ever adds to what is live (a timeline
// second, its histogram, at a time), so at the default 100 the heap is
// let grow to twice the decoded result before a collection: a 468 MB
// result took 959 MB of peak RSS to report, 622 MB at 25 (issue 47, item
// 22), for about a third again the CPU (the collections that the histogram
// check's garbage triggers mark the whole result). Under leanFrom the
// default stays: a small report pays nothing.
const (
	leanFrom = 16 << 20
	leanGC   = 25
)

// LeanGC lowers the process's garbage-collection target while a command
// loads and renders the result files at paths, when they are big
// (leanFrom bytes together) and the user set no GOGC (which getenv
// reads); it returns the function that puts the previous target back. A
// report of a big result then holds about the result, not twice it. It
// changes process-wide state: a command calls it once, for its one batch
// of results, never for two batches at once.
func LeanGC(paths []string, getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" || totalSize(paths) < leanFrom {
		return func() {}
	}
	prev := debug.SetGCPercent(leanGC)
	return func() { debug.SetGCPercent(prev) }
}

// LoadAll loads the result files at paths, in order, with Load; the
// first error ends it.
func LoadAll(paths []string) ([]*Result, error) {
	rs := make([]*Result, 0, len(paths))
	for _, p := range paths {
		r, err := Load(p)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// totalSize is the bytes of the files at paths; a file that cannot be
// read counts 0 (Load then says why it cannot be read).
func totalSize(paths []string) int64 {
	var n int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	return n
}
