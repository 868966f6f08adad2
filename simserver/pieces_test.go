package simserver

import (
	"bytes"
	"io"
	"testing"
)

// TestPiecesAreTheData: the slices of a document are, end to end, the
// bytes data() builds, for text and binary types, tiny and multi-chunk
// sizes; ReadAt and Seek+Read give any range of them.
func TestPiecesAreTheData(t *testing.T) {
	g := newGenerator()
	for _, uri := range []string{
		"sim:///a.txt?mime=text/plain&size=0",
		"sim:///a.txt?mime=text/plain&size=7",
		"sim:///a.md?mime=text/markdown&size=100000",
		"sim:///a.json?mime=application/json&size=300001",
		"sim:///a.png?mime=image/png&size=20",
		"sim:///a.png?mime=image/png&size=1834208",
		"sim:///a.bin?size=500000",
	} {
		s, err := ParseSimURI(uri)
		if err != nil {
			t.Fatal(err)
		}
		seed := seedOf(s.URI)
		want := g.data(s, seed)
		r := newPieceReader(g.pieces(s, seed))
		if r.Size() != int64(len(want)) {
			t.Fatalf("%s: size %d, want %d", uri, r.Size(), len(want))
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: pieces differ from data (%d bytes, %v)", uri, len(got), err)
		}
		for _, rg := range [][2]int64{{0, 1}, {1, 5000}, {int64(len(want)) / 3, 70000}, {int64(len(want)) - 3, 3}} {
			off, n := rg[0], min(rg[1], int64(len(want))-rg[0])
			if off < 0 || n <= 0 {
				continue
			}
			p := make([]byte, n)
			k, err := r.ReadAt(p, off)
			if k != int(n) || (err != nil && err != io.EOF) || !bytes.Equal(p, want[off:off+n]) {
				t.Errorf("%s: ReadAt(%d, %d) = %d, %v", uri, off, n, k, err)
			}
			if _, err := r.Seek(off, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			q := make([]byte, n)
			if _, err := io.ReadFull(r, q); err != nil || !bytes.Equal(q, want[off:off+n]) {
				t.Errorf("%s: Seek(%d)+Read(%d): %v", uri, off, n, err)
			}
		}
		if k, err := r.ReadAt(make([]byte, 4), r.Size()); k != 0 || err != io.EOF {
			t.Errorf("%s: ReadAt at the end = %d, %v", uri, k, err)
		}
	}
}
