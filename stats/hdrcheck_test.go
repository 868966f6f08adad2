package stats

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"testing"
	"time"
)

// hdrOf encodes a histogram header as the V2 compressed encoding, with the
// given parameters and no counts.
func hdrOf(t *testing.T, digits int32, lowest, highest int64) string {
	t.Helper()
	var inner bytes.Buffer
	_ = binary.Write(&inner, binary.BigEndian, []int32{hdrCookie | 0x10, 0, 0, digits})
	_ = binary.Write(&inner, binary.BigEndian, []int64{lowest, highest})
	_ = binary.Write(&inner, binary.BigEndian, float64(1))
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(inner.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var outer bytes.Buffer
	_ = binary.Write(&outer, binary.BigEndian, []int32{hdrCompressedCookie | 0x10, int32(z.Len())})
	outer.Write(z.Bytes())
	return base64.StdEncoding.EncodeToString(outer.Bytes())
}

func TestHistogramGuard(t *testing.T) {
	cases := []struct {
		digits          int32
		lowest, highest int64
		ok              bool
		why             string
	}{
		{3, 1, 3_600_000_000, true, "readbench's own: 1 µs to 1 h, 3 digits"},
		{5, 1, 1 << 30, true, "5 digits over a wide range is still small enough"},
		{5, 1, 1 << 60, false, "5 digits over the whole int64 range allocate too much"},
		{3, 1 << 50, 1 << 61, true, "a coarse histogram of huge values"},
		{3, 1 << 62, 1<<63 - 1, false, "hdrhistogram-go loops forever on this"},
		{3, 1 << 51, 1 << 61, false, "the lowest value shifts the range out of int64"},
		{0, 1, 1000, false, "no significant digit"},
		{3, 0, 1000, false, "a lowest value below 1"},
		{3, 1000, 1500, false, "highest below twice the lowest"},
	}
	for _, c := range cases {
		done := make(chan error, 1)
		go func() { _, err := DecodeHistogram(hdrOf(t, c.digits, c.lowest, c.highest)); done <- err }()
		select {
		case err := <-done:
			if (err == nil) != c.ok {
				t.Errorf("%s: error %v", c.why, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: decoding hangs", c.why)
		}
	}
	// A zlib bomb: inflating stops at the limit (16 MiB in checkHistogram;
	// 4 KiB here, to keep the test fast).
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 64<<10))
	_ = zw.Close()
	if _, err := inflate(z.Bytes(), 4<<10); err == nil {
		t.Error("a zlib bomb must be refused before it is inflated")
	}
	if out, err := inflate(z.Bytes(), 64<<10); err != nil || len(out) != 64<<10 {
		t.Errorf("at the limit: %d bytes, %v", len(out), err)
	}
}
