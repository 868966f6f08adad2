package simserver

import (
	"errors"
	"io"
	"sort"
)

// A document's bytes as a list of slices, most of them shared with the
// generator's blocks: what data() would build, without building it. The
// plain HTTP /files/ answers and the ranged read tool serve a range of a
// document from it, so reading a 256 MiB document in 256 KiB parts costs
// each part its own bytes, not a copy of the whole document per part.

// document returns a reader of spec's bytes (a single-entry spec): from
// the answer cache when the document fits in a quarter of it, so parts of
// a document read over and over cost a lookup; otherwise from its segments,
// never built whole (segments cost about 2 ms per 12 MiB of text to lay out,
// a tenth of building the bytes).
func (s *Server) document(spec *Spec) *segmentReader {
	seed := s.gen.seed(spec.URI)
	if spec.Size <= s.cache.max/4 {
		data := s.cache.get("raw\x00"+spec.URI, func() []byte { return s.gen.data(spec, seed) })
		return newSegmentReader([][]byte{data})
	}
	return newSegmentReader(s.gen.segments(spec, seed))
}

// segments returns slices whose concatenation is data(s, seed). The
// slices are shared and must never be modified.
func (g *generator) segments(s *Spec, seed uint64) [][]byte {
	if s.kind != nil {
		tb := g.textBlock(s.kind)
		runs, pad, ok := tb.units(int(s.Size), seed)
		if !ok {
			return [][]byte{tb.k.small(nil, int(s.Size))}
		}
		segs := make([][]byte, 0, len(runs)+2)
		segs = append(segs, []byte(tb.k.prefix))
		for i, r := range runs {
			to := tb.bound[r[1]]
			if i == len(runs)-1 {
				to -= len(tb.k.sep)
			}
			segs = append(segs, tb.raw[tb.bound[r[0]]:to])
		}
		return append(segs, tb.k.frameEnd(nil, pad))
	}
	segs := [][]byte{g.head(s.base, s.Size, seed)}
	g.body(s.Size, seed, func(off, n int) { segs = append(segs, g.block[off:off+n]) })
	return segs
}

// segmentReader reads a list of slices as one document: an io.ReadSeeker
// (for http.ServeContent) and io.ReaderAt.
type segmentReader struct {
	segs  [][]byte
	start []int64 // start[i]: offset of segs[i]; start[len(segs)]: the size
	pos   int64
}

func newSegmentReader(segs [][]byte) *segmentReader {
	r := &segmentReader{segs: segs, start: make([]int64, len(segs)+1)}
	for i, s := range segs {
		r.start[i+1] = r.start[i] + int64(len(s))
	}
	return r
}

// Size is the document's length in bytes.
func (r *segmentReader) Size() int64 { return r.start[len(r.segs)] }

// ReadAt copies the bytes at off into p.
func (r *segmentReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("simserver: negative offset")
	}
	if off >= r.Size() {
		return 0, io.EOF
	}
	i := sort.Search(len(r.segs), func(i int) bool { return r.start[i+1] > off })
	n := 0
	for ; i < len(r.segs) && n < len(p); i++ {
		from := max(off+int64(n)-r.start[i], 0)
		n += copy(p[n:], r.segs[i][from:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (r *segmentReader) Read(p []byte) (int, error) {
	n, err := r.ReadAt(p, r.pos)
	r.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

func (r *segmentReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.pos
	case io.SeekEnd:
		offset += r.Size()
	default:
		return 0, errors.New("simserver: bad whence")
	}
	if offset < 0 {
		return 0, errors.New("simserver: negative position")
	}
	r.pos = offset
	return offset, nil
}
