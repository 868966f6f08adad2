package client

import (
	"bytes"
	"testing"
)

// TestMediaTypeBare: a declared type taken as it is gives what the full
// parse gives.
func TestMediaTypeBare(t *testing.T) {
	for _, c := range []struct{ declared, want string }{
		{"text/markdown", "text/markdown"},
		{"application/vnd.api+json", "application/vnd.api+json"},
		{"Text/Markdown", "text/markdown"},
		{"text/plain; charset=utf-8", "text/plain"},
		{" text/plain ", "text/plain"},
		{"text/plain\t", "text/plain"},
		{"", ""},
	} {
		if got := mediaType(c.declared); got != c.want {
			t.Errorf("mediaType(%q) = %q, want %q", c.declared, got, c.want)
		}
	}
}

// TestTextRunesLikeReference: every two-byte sequence, and three-byte
// sequences around the edges of UTF-8's ranges, count in a text as the
// buffered walk counts them (invalid bytes as U+FFFD), whole or cut
// between any two bytes.
func TestTextRunesLikeReference(t *testing.T) {
	edges := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xe1, 0xff}
	var seqs [][]byte
	for b0 := range 256 {
		for b1 := range 256 {
			seqs = append(seqs, []byte{byte(b0), byte(b1)})
		}
		if b0 >= 0xe0 && b0 < 0xf0 {
			for _, b1 := range edges {
				for _, b2 := range edges {
					seqs = append(seqs, []byte{byte(b0), b1, b2})
				}
			}
		}
	}
	for _, seq := range seqs {
		body := []byte(`{"result":{"contents":[{"uri":"u","text":"abcdefgh` + string(seq) + `\n12345678"}]}}`)
		want := classifyRef(body, "u", false)
		cut := bytes.Index(body, seq)
		for _, cuts := range [][]byte{nil, {byte(cut + 1)}, {byte(cut + len(seq) - 1)}} {
			if got := scanChunked(body, cuts, "u", false, false, false); !sameVerdict(got, want) {
				t.Fatalf("text with %x cut %v: %+v, want %+v", seq, cuts, got, want)
			}
		}
	}
}
