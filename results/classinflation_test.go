package results

import (
	"testing"
	"time"

	"github.com/readbench/readbench/stats"
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
		case c.DiskBytes > 0 && (c.Inflation == nil || !near(*c.Inflation, float64(c.WireBytes-c.ErrorWire)/float64(c.DiskBytes))):
			t.Errorf("class %s: inflation %v, want (%d-%d)/%d", c.Class, v, c.WireBytes, c.ErrorWire, c.DiskBytes)
		}
	}
	if c := r.Classes[2]; c.Class != "renamed-policy" || c.DiskBytes != 0 || c.WireBytes == 0 {
		t.Fatalf("the fixture's class that decodes nothing is %+v", c)
	}
}

// TestInflationOverOKAnswers: a class whose missing documents answered
// with errors (all envelope, no document) keeps the inflation of its ok
// answers, in the class and in the totals; the error answers' bytes are
// on the wire (wire_bytes, the MB/s) and counted apart (error_wire_bytes),
// as are the bytes of a read cut mid-answer. Before, they were in the
// quotient: 10 ok answers of 1,390 bytes for 1,000 and 90 not-found
// answers of 200 bytes gave 3.19× for a class whose documents cost 1.39×.
func TestInflationOverOKAnswers(t *testing.T) {
	rec := stats.NewRecorder([]stats.ClassInfo{{Name: "docs", MIME: "text/plain"}})
	read := func(n int, o stats.Outcome, wire, disk int64) {
		rec.Schedule(n)
		for range n {
			rec.Read(stats.ReadSample{Outcome: o, Answered: o != stats.Cancelled, LowerBound: o == stats.Cancelled, Sent: true,
				Latency: time.Millisecond, ByteCounts: stats.ByteCounts{WireBytes: wire, DiskBytes: disk}})
		}
	}
	read(10, stats.OK, 1390, 1000)
	read(90, stats.NotFound, 200, 0)
	read(1, stats.Cancelled, 700, 500) // cut mid-answer: what arrived is wire cost, not a document
	r, err := Build(fixtureMeta(false), fixtureWorkload(t), rec.Phase(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, tot := r.Classes[0], r.Totals
	for _, got := range []struct {
		name                string
		wire, errWire, disk int64
		inflation           *float64
	}{{"class", c.WireBytes, c.ErrorWire, c.DiskBytes, c.Inflation}, {"totals", tot.WireBytes, tot.ErrorWire, tot.DiskBytes, tot.Inflation}} {
		if got.wire != 13900+18000+700 || got.errWire != 18000+700 || got.disk != 10000 {
			t.Errorf("%s: wire %d, not ok %d, disk %d: want 32,600, 18,700, 10,000", got.name, got.wire, got.errWire, got.disk)
		}
		if got.inflation == nil || !near(*got.inflation, 1.39) {
			t.Errorf("%s: inflation %v, want 1.39 (the ok answers' 13,900 / 10,000)", got.name, got.inflation)
		}
	}
	if enc, env := c.EncodingBytes, c.EnvelopeBytes; enc != 0 || env != 3900 {
		t.Errorf("split: encoding %d, envelope %d: want 0 and the ok answers' 3,900", enc, env)
	}
}
