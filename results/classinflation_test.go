package results

import (
	"testing"
)

// TestClassInflationNull: a class that decoded nothing (every read an
// error: wire bytes, no disk bytes) has no inflation, null in the
// document, never 0 or infinity; a class that decoded bytes has its
// quotient.
func TestClassInflationNull(t *testing.T) {
	r := fixture(t, false)
	m, _ := decodeMap(t, r)
	classes := m["classes"].([]any)
	for i, c := range r.Classes {
		raw := classes[i].(map[string]any)
		v, ok := raw["inflation"]
		switch {
		case !ok:
			t.Errorf("class %s: no inflation key", c.Class)
		case c.DiskBytes == 0 && (c.Inflation != nil || v != nil):
			t.Errorf("class %s decoded nothing (wire %d): inflation %v, want null", c.Class, c.WireBytes, v)
		case c.DiskBytes > 0 && (c.Inflation == nil || !near(*c.Inflation, float64(c.WireBytes)/float64(c.DiskBytes))):
			t.Errorf("class %s: inflation %v, want %d/%d", c.Class, v, c.WireBytes, c.DiskBytes)
		}
	}
	if c := r.Classes[2]; c.Class != "renamed-policy" || c.DiskBytes != 0 || c.WireBytes == 0 {
		t.Fatalf("the fixture's class that decodes nothing is %+v", c)
	}
}
