package stats

// Base64Len is the exact length of the padded standard base64 encoding of
// n bytes: 4 characters for every 3 bytes, a short last group still costing
// 4. For a 1,834,208-byte PNG it is 2,445,612 (docs/measurement.md (wire
// bytes and disk bytes)).
func Base64Len(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return 4 * ((n + 2) / 3)
}

// Base64Padding is the number of '=' at the end of that encoding: 0, 1 or 2.
// 1,834,208 bytes is two more than a whole number of groups: one '='.
func Base64Padding(n int64) int {
	return int((3 - n%3) % 3)
}

// Ratio returns a/b, or 0 when b is 0 (no data is not infinite inflation).
func Ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// ByteCounts are what reads carried: the answers as received on the wire
// (body and framing), decoded (text + blob), the base64 characters of
// their blobs and the '=' closing those. A sample, a class, a run and a
// ranged fetch hold the same four, and every sum adds them with Add.
type ByteCounts struct {
	WireBytes, DiskBytes, Base64Bytes, Base64Padding int64
}

// Add adds o into b.
func (b *ByteCounts) Add(o ByteCounts) {
	b.WireBytes += o.WireBytes
	b.DiskBytes += o.DiskBytes
	b.Base64Bytes += o.Base64Bytes
	b.Base64Padding += o.Base64Padding
}
