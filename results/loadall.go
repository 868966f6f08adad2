package results

import (
	"os"
	"runtime/debug"
)

// leanFrom and leanGC: LoadAll lowers the garbage collector's target to
// leanGC percent while it loads files that add up to leanFrom bytes or
// more. Decoding a result only ever adds to what is live (a timeline
// second, its histogram, at a time), so at the default 100 the heap is
// let grow to twice the decoded result before a collection: a 468 MB
// result took 959 MB of peak RSS to report, 622 MB at 25 (issue 47, item
// 22), for about half again the CPU (the collections that the histogram
// check's garbage triggers mark the whole result). Under leanFrom the
// default stays: a small report pays nothing.
const (
	leanFrom = 16 << 20
	leanGC   = 25
)

// LoadAll loads the result files at paths, in order, with Load; the
// first error ends it. When the files are big (leanFrom bytes together)
// and the user set no GOGC (which getenv reads), it lowers the process's
// garbage-collection target while it loads them and puts the previous one
// back before it returns, so that a report of a big result holds about
// the result, not twice it. It changes process-wide state: a command
// loads its one batch of results with it, never two batches at once.
func LoadAll(paths []string, getenv func(string) string) ([]*Result, error) {
	if getenv("GOGC") == "" && totalSize(paths) >= leanFrom {
		prev := debug.SetGCPercent(leanGC)
		defer debug.SetGCPercent(prev)
	}
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
