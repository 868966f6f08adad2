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
// a document read over and over cost a lookup; otherwise from its pieces,
// never built whole (pieces cost about 2 ms per 12 MiB of text to lay out,
// a tenth of building the bytes).
func (s *Server) document(spec *Spec) *pieceReader {
	spec = s.revised(spec)
	seed := s.gen.entrySeed(spec, 0)
	if spec.Size <= s.cache.max/4 {
		data := s.cache.get("raw\x00"+spec.cacheKey(), func() []byte { return s.gen.data(spec, seed) })
		return newPieceReader([][]byte{data})
	}
	return newPieceReader(s.gen.pieces(spec, seed))
}

// pieces returns slices whose concatenation is data(s, seed). The
// slices are shared and must never be modified.
func (g *generator) pieces(s *Spec, seed uint64) [][]byte {
	if s.kind != nil {
		tb := g.textBlock(s.kind)
		runs, pad, ok := tb.units(int(s.Size), seed)
		if !ok {
			return [][]byte{tb.k.small(nil, int(s.Size))}
		}
		pieces := make([][]byte, 0, len(runs)+2)
		pieces = append(pieces, []byte(tb.k.prefix))
		for i, r := range runs {
			to := tb.bound[r[1]]
			if i == len(runs)-1 {
				to -= len(tb.k.sep)
			}
			pieces = append(pieces, tb.raw[tb.bound[r[0]]:to])
		}
		return append(pieces, tb.k.frameEnd(nil, pad))
	}
	pieces := [][]byte{g.head(s.base, s.Size, seed)}
	g.body(s.Size, seed, func(off, n int) { pieces = append(pieces, g.block[off:off+n]) })
	return pieces
}

// pieceReader reads a list of slices as one document: an io.ReadSeeker
// (for http.ServeContent) and io.ReaderAt.
type pieceReader struct {
	pieces [][]byte
	start  []int64 // start[i]: offset of pieces[i]; start[len(pieces)]: the size
	pos    int64
}

func newPieceReader(pieces [][]byte) *pieceReader {
	r := &pieceReader{pieces: pieces, start: make([]int64, len(pieces)+1)}
	for i, s := range pieces {
		r.start[i+1] = r.start[i] + int64(len(s))
	}
	return r
}

// Size is the document's length in bytes.
func (r *pieceReader) Size() int64 { return r.start[len(r.pieces)] }

// ReadAt copies the bytes at off into p.
func (r *pieceReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("simserver: negative offset")
	}
	if off >= r.Size() {
		return 0, io.EOF
	}
	i := sort.Search(len(r.pieces), func(i int) bool { return r.start[i+1] > off })
	n := 0
	for ; i < len(r.pieces) && n < len(p); i++ {
		from := max(off+int64(n)-r.start[i], 0)
		n += copy(p[n:], r.pieces[i][from:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (r *pieceReader) Read(p []byte) (int, error) {
	n, err := r.ReadAt(p, r.pos)
	r.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

func (r *pieceReader) Seek(offset int64, whence int) (int64, error) {
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
