package results

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestWriteJSONIsMarshal: WriteJSON, which encodes the timeline and the
// classes entry by entry, writes the bytes Marshal writes, whatever the
// lists hold (null, empty, entries), HTML-escaped strings included.
func TestWriteJSONIsMarshal(t *testing.T) {
	base, err := Load(filepath.Join("testdata", "timeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(r *Result)
	}{
		{"as loaded", func(*Result) {}},
		{"empty lists", func(r *Result) { r.Timeline, r.Classes = []Second{}, []Class{} }},
		{"null lists", func(r *Result) { r.Timeline, r.Classes = nil, nil }},
		{"one entry each", func(r *Result) { r.Timeline, r.Classes = r.Timeline[:1], r.Classes[:1] }},
		{"a class named like a key", func(r *Result) {
			r.Classes = append([]Class(nil), r.Classes...)
			r.Classes[0].Class = "\n  \"timeline\": null <&>"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := *base
			tc.edit(&r)
			want, err := r.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := r.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				i := 0
				for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
					i++
				}
				t.Errorf("WriteJSON differs from Marshal at byte %d:\n got …%.80q\nwant …%.80q", i, got.Bytes()[i:], want[i:])
			}
		})
	}
}
