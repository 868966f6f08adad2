package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestWriteInflationExactNumbers: a 1,834,208-byte PNG (2,445,612 base64
// characters, one pad) and forty 3 MB mockups (160 MB of base64) come out exactly.
func TestWriteInflationExactNumbers(t *testing.T) {
	var b bytes.Buffer
	err := WriteInflation(&b, []InflationRow{
		{Input: "1834208", Count: 1, Disk: 1834208, Envelope: 122, Payload: 2445612},
		{Input: "40x3MB", Count: 40, Disk: 3000000, Envelope: 122, Payload: 4000000},
	})
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
