package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// inflationRows are a 1,834,208-byte PNG and forty 3 MB mockups.
var inflationRows = []InflationRow{
	{Input: "1834208", Count: 1, Disk: 1834208, Envelope: 122, Payload: 2445612},
	{Input: "40x3MB", Count: 40, Disk: 3000000, Envelope: 122, Payload: 4000000},
}

// TestWriteInflationExactNumbers: a 1,834,208-byte PNG (2,445,612 base64
// characters, one pad) and forty 3 MB mockups (160 MB of base64) come out exactly.
func TestWriteInflationExactNumbers(t *testing.T) {
	var b bytes.Buffer
	err := WriteInflation(&b, inflationRows, 200)
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"1,834,208 bytes → 611,403 groups of 3 → 2,445,612 base64 characters (the last group is short by one byte: one '=')",
		"× 40 documents: 120,000,000 bytes on disk → 160,000,000 base64 characters",
		"no padding",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestWriteInflationFitsTheWidth: at 80 and 120 columns no line is wider
// and none ends in a blank; where the table fits (120) it is drawn, and
// where it does not (80) each input is a sentence with the same figures.
func TestWriteInflationFitsTheWidth(t *testing.T) {
	for _, tc := range []struct {
		width int
		want  string
	}{
		{120, " 40x3MB  |        40 |  120 MB |  160 MB |"},
		{80, "40x3MB: 40 documents, 120 MB on disk\n  wire 160 MB = payload 160 MB + envelope 4.88 kB\n  inflation 1.333× (encoding 1.333×, envelope share <0.01%)"},
	} {
		var b bytes.Buffer
		if err := WriteInflation(&b, inflationRows, tc.width); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > tc.width || strings.TrimRight(l, " ") != l {
				t.Errorf("width %d: line %d is %d columns or ends in a blank: %q", tc.width, i+1, n, l)
			}
		}
		if !strings.Contains(out, tc.want) {
			t.Errorf("width %d: no %q in:\n%s", tc.width, tc.want, out)
		}
	}
}
