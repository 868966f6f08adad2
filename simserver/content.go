package simserver

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"math/rand/v2"
	"mime"
	"strings"
	"sync"

	"github.com/readbench/readbench/protocol"
)

// Entry is one contents entry as the server puts it on the wire: the uri it
// echoes, the mimeType it declares ("" when omitted), the decoded bytes and
// whether they travel as text (true) or as a base64 blob (false).
//
// Content returns entries so that tests and the driver's end-to-end checks
// can compare what a client decoded with what the server meant to send,
// without a corpus on disk.
type Entry struct {
	URI, MIME string
	Data      []byte
	Text      bool
}

// Content returns the deterministic contents the server answers for a sim:
// URI, entry by entry. It reflects the faults visible in an Entry (empty
// contents, a rewritten uri, an omitted or a wrong mimeType, a blob forced
// by bad_base64); for fault=neither, both and bad_base64 Data holds the bytes
// the entry would have carried had it been well formed.
//
// A URI of another scheme returns an error wrapping ErrNotSim, a bad one an
// error wrapping ErrBadURI, and an error=CODE URI the *protocol.Error the
// server answers.
func Content(uri string) ([]Entry, error) { return newGenerator().content(uri) }

func (g *generator) content(uri string) ([]Entry, error) {
	s, err := ParseSimURI(uri)
	if err != nil {
		return nil, err
	}
	if s.ErrorCode != 0 {
		return nil, simulatedError(s)
	}
	return g.entries(s), nil
}

// generator makes content. Its random block is filled once from a fixed
// seed, so every generator (each Server, each Content call) produces the
// same bytes for the same URI, and a read costs copies of slices of the
// block rather than fresh pseudorandom numbers. The block's base64 is kept
// too: binary content is laid out in 3-byte-aligned slices of the block, so
// its base64 is slices of block64, and encoding a blob costs a copy instead
// of an encoding. Text works the same way (see textBlock).
type generator struct {
	block   []byte
	block64 func() []byte // base64 of block, computed on first use (Content never needs it)

	alter string // Options.AlterContent

	mu    sync.Mutex
	texts map[string]*textBlock // by textKind name, built on first use
}

const (
	blockSize = 3 << 18 // the shared pseudorandom block (768 KiB); a multiple of 3
	chunkSize = 3 << 14 // binary content is copied from the block in chunks this long; a multiple of 3
	headLen   = 36      // binary content starts with this much: magic bytes, then filler; a multiple of 3
)

func newGenerator() *generator {
	g := &generator{block: make([]byte, blockSize), texts: map[string]*textBlock{}}
	r := rand.NewPCG(0x72656164, 0x62656e6368) // "read", "bench": fixed, so content is stable
	for i := 0; i < blockSize; i += 8 {
		binary.LittleEndian.PutUint64(g.block[i:], r.Uint64())
	}
	g.block64 = sync.OnceValue(func() []byte { return base64.StdEncoding.AppendEncode(nil, g.block) })
	return g
}

// altering makes g change the content of URIs containing alter (when not
// empty): see Options.AlterContent.
func (g *generator) altering(alter string) *generator {
	g.alter = alter
	return g
}

// seed is the content seed of an entry URI: seedOf, altered when the URI
// contains the AlterContent string.
func (g *generator) seed(uri string) uint64 {
	if g.alter != "" && strings.Contains(uri, g.alter) {
		return mix(seedOf(uri) ^ 0xa17e4ed)
	}
	return seedOf(uri)
}

// entrySeed is the content seed of entry i of s: its URI's seed, moved by
// the document's revision once it changed (changes.go), so that each
// revision has other bytes of the same size and type.
func (g *generator) entrySeed(s *Spec, i int) uint64 {
	seed := g.seed(s.EntryURI(i))
	if s.rev != 0 {
		seed = mix(seed ^ (s.rev * 0x9e3779b97f4a7c15))
	}
	return seed
}

// seedOf derives the content seed of an entry from its URI (FNV-1a, 64 bit):
// deterministic across processes and versions, unlike hash/maphash. Write
// on the concrete hash does not allocate (TestSeedOf holds it to that).
func seedOf(uri string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(uri))
	return h.Sum64()
}

// mix is the SplitMix64 finaliser: it spreads a seed over 64 bits.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// entries builds every entry of a read, faults applied as Content documents.
func (g *generator) entries(s *Spec) []Entry {
	if s.Fault == FaultEmpty {
		return []Entry{}
	}
	out := make([]Entry, s.Entries)
	for i := range out {
		out[i] = g.entryMeta(s, i)
		out[i].Data = g.data(s, g.entrySeed(s, i))
	}
	return out
}

// entryMeta is entry i without its data: the uri, mimeType and encoding the
// wire shows, faults applied.
func (g *generator) entryMeta(s *Spec, i int) Entry {
	e := Entry{URI: s.EntryURI(i), MIME: s.DeclaredMIME(), Text: s.kind != nil}
	switch s.Fault {
	case FaultRewriteURI:
		e.URI = rewrittenURI(s, i)
	case FaultNoMIME:
		e.MIME = ""
	case FaultBadBase64:
		e.Text = false
	}
	return e
}

// rewrittenURI is the uri a rewrite_uri fault echoes: a different resource,
// as a server that resolved a template or followed a rename would say.
func rewrittenURI(s *Spec, i int) string {
	u := "sim:///rewritten/" + s.Name
	if s.Entries != 1 {
		u += fmt.Sprintf("#%d", i)
	}
	return u
}

// data returns the content of an entry of s with the given seed.
func (g *generator) data(s *Spec, seed uint64) []byte {
	if s.kind != nil {
		return g.textBlock(s.kind).appendRaw(make([]byte, 0, s.Size), int(s.Size), seed)
	}
	dst := make([]byte, 0, s.Size)
	dst = append(dst, g.head(s.base, s.Size, seed)...)
	g.body(s.Size, seed, func(off, n int) { dst = append(dst, g.block[off:off+n]...) })
	return dst
}

// appendBlob64 appends the standard padded base64 of data(s, seed), mostly
// by copying slices of block64.
func (g *generator) appendBlob64(dst []byte, s *Spec, seed uint64) []byte {
	dst = base64.StdEncoding.AppendEncode(dst, g.head(s.base, s.Size, seed))
	block64 := g.block64()
	g.body(s.Size, seed, func(off, n int) {
		full := n - n%3
		dst = append(dst, block64[off/3*4:(off+full)/3*4]...)
		dst = base64.StdEncoding.AppendEncode(dst, g.block[off+full:off+n])
	})
	return dst
}

// head is the first min(size, headLen) bytes of binary content of base type
// t: the type's magic bytes, then filler from a seed-derived offset of the
// block.
func (g *generator) head(t string, size int64, seed uint64) []byte {
	h := make([]byte, 0, headLen)
	h = append(h, magicFor(t, size, seed)...)
	off := int(mix(seed) % uint64(blockSize-headLen))
	h = append(h, g.block[off:off+headLen-len(h)]...)
	return h[:min(int64(headLen), size)]
}

// body calls emit for each chunk of binary content after the head: block
// offset (a multiple of 3) and length (a multiple of 3 but for the last).
// Offsets derive from the seed, so URIs differ and chunks do not repeat.
func (g *generator) body(size int64, seed uint64, emit func(off, n int)) {
	rest := size - headLen
	for k := uint64(1); rest > 0; k++ {
		n := int(min(rest, chunkSize))
		off := 3 * int(mix(seed^(k*0x9e3779b97f4a7c15))%uint64((blockSize-chunkSize)/3))
		emit(off, n)
		rest -= int64(n)
	}
}

// baseType is the lower-case type/subtype of a media type, parameters dropped.
func baseType(m string) string {
	if t, _, err := mime.ParseMediaType(m); err == nil {
		return t
	}
	return strings.ToLower(m)
}

// isText reports whether content of this type travels as text: text/*,
// JSON, XML, YAML and their structured-syntax suffixes, and a few
// application/ types that are text in practice.
func isText(m string) bool {
	t := baseType(m)
	if strings.HasPrefix(t, "text/") {
		return true
	}
	for _, suffix := range []string{"+json", "+xml", "+yaml"} {
		if strings.HasSuffix(t, suffix) {
			return true
		}
	}
	switch t {
	case "application/json", "application/xml", "application/yaml", "application/x-yaml",
		"application/javascript", "application/ecmascript", "application/toml",
		"application/sql", "application/graphql", "application/x-sh", "application/x-ndjson":
		return true
	}
	return false
}

// magicFor returns the leading bytes of a binary type, truncated to size:
// real magic numbers (and, for PNG, a well-formed IHDR chunk with a valid
// CRC) so that a client sniffing content finds what the type promises.
func magicFor(t string, size int64, seed uint64) []byte {
	var m []byte
	w, h := uint32(640+seed%1280), uint32(480+(seed>>16)%960)
	switch t {
	case "image/png":
		m = append([]byte("\x89PNG\r\n\x1a\n"), 0, 0, 0, 13)
		ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
		ihdr = binary.BigEndian.AppendUint32(ihdr, h)
		ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA, deflate, no interlace
		m = append(m, ihdr...)
		m = binary.BigEndian.AppendUint32(m, crc32.ChecksumIEEE(ihdr))
	case "image/jpeg", "image/jpg":
		m = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
	case "image/gif":
		m = binary.LittleEndian.AppendUint16([]byte("GIF89a"), uint16(w))
		m = binary.LittleEndian.AppendUint16(m, uint16(h))
		m = append(m, 0xf7, 0, 0) // global colour table of 256, background 0, aspect 0
	case "image/webp":
		m = binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(max(size-8, 0)))
		m = append(m, "WEBPVP8 "...)
	case "application/pdf":
		m = []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	case "application/zip", "application/epub+zip", "application/java-archive":
		m = []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00")
	case "application/gzip", "application/x-gzip":
		m = []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03")
	default:
		if strings.HasPrefix(t, "application/vnd.openxmlformats") {
			m = []byte("PK\x03\x04\x14\x00\x06\x00\x08\x00")
		}
	}
	if int64(len(m)) > size {
		m = m[:size]
	}
	return m
}

// simulatedError is the JSON-RPC error an error=CODE URI answers, with the
// usual message for the well-known codes and the uri in data.
func simulatedError(s *Spec) *protocol.Error {
	msg := "Simulated error"
	switch s.ErrorCode {
	case protocol.CodeResourceNotFound:
		msg = "Resource not found"
	case protocol.CodeInvalidParams:
		msg = "Invalid params"
	case protocol.CodeInternal:
		msg = "Internal error"
	}
	return protocol.NewError(s.ErrorCode, msg, map[string]string{"uri": s.URI})
}
