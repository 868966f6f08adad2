package stats

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
)

// The HdrHistogram V2 encoding (see hdrhistogram-go's hdr_encoding.go): a
// base64 string of an 8-byte header (cookie, compressed length) and a zlib
// stream whose contents start with a 40-byte header (cookie, payload length,
// normalizing offset, significant digits, lowest and highest trackable
// values, conversion ratio) followed by the counts.
const (
	hdrCompressedCookie = 0x1c849304
	hdrCookie           = 0x1c849303
	hdrCookieMask       = ^int32(0xf0) // the low nibble's high bits carry a word size
	hdrHeaderSize       = 40
	// hdrMaxInflated bounds the decompressed size: a readbench histogram
	// (1 µs to 1 h, 3 digits) inflates to well under 1 MiB, and a zlib
	// stream can otherwise expand a thousandfold.
	hdrMaxInflated = 16 << 20
	// hdrMaxCounts bounds the counts array a histogram's header makes the
	// library allocate (8 bytes each); ours need about 24,000.
	hdrMaxCounts = 1 << 22
)

// checkHistogram refuses an encoded histogram that hdrhistogram-go would
// hang on or exhaust memory with, before it is decoded: the library loops
// forever on a huge lowest trackable value (its bucket arithmetic shifts to
// zero), decompresses without a limit and allocates what the header asks.
// Result files come from anywhere, so these are checked here.
func checkHistogram(s string) error {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("decode histogram: %w", err)
	}
	if len(raw) < 8 {
		return errors.New("decode histogram: too short")
	}
	cookie := int32(binary.BigEndian.Uint32(raw[0:4]))
	length := int32(binary.BigEndian.Uint32(raw[4:8]))
	if cookie&hdrCookieMask != hdrCompressedCookie {
		return errors.New("decode histogram: not an HdrHistogram V2 compressed encoding")
	}
	if length < 0 || int(length) > len(raw)-8 {
		return errors.New("decode histogram: truncated")
	}
	inflated, err := inflate(raw[8:8+length], hdrMaxInflated)
	if err != nil {
		return err
	}
	if len(inflated) < hdrHeaderSize {
		return errors.New("decode histogram: header truncated")
	}
	h := inflated[:hdrHeaderSize]
	if int32(binary.BigEndian.Uint32(h[0:4]))&hdrCookieMask != hdrCookie {
		return errors.New("decode histogram: bad contents cookie")
	}
	digits := int32(binary.BigEndian.Uint32(h[12:16]))
	lowest := int64(binary.BigEndian.Uint64(h[16:24]))
	highest := int64(binary.BigEndian.Uint64(h[24:32]))
	return checkRange(digits, lowest, highest)
}

// inflate decompresses a zlib stream of at most limit bytes.
func inflate(compressed []byte, limit int) ([]byte, error) {
	z, err := zlib.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	defer z.Close()
	out, err := io.ReadAll(io.LimitReader(z, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	if len(out) > limit {
		return nil, errors.New("decode histogram: contents too large")
	}
	return out, nil
}

// checkRange checks a histogram's parameters the way the library will use
// them, and bounds the size of the counts array they imply.
func checkRange(digits int32, lowest, highest int64) error {
	if digits < 1 || digits > 5 {
		return fmt.Errorf("decode histogram: %d significant digits (want 1 to 5)", digits)
	}
	if lowest < 1 || highest < 2*lowest || highest > math.MaxInt64/2 {
		return fmt.Errorf("decode histogram: bad range %d to %d", lowest, highest)
	}
	// The library's sizing: sub-buckets give unit resolution up to
	// 2·10^digits; each bucket doubles the range until highest is covered.
	subMagnitude := int(math.Ceil(math.Log2(2 * math.Pow10(int(digits)))))
	unitMagnitude := bits.Len64(uint64(lowest)) - 1
	if subMagnitude+unitMagnitude > 61 {
		return fmt.Errorf("decode histogram: lowest value %d is too large", lowest)
	}
	smallestUntrackable := int64(1) << (subMagnitude + unitMagnitude)
	buckets := int64(1)
	for smallestUntrackable < highest && smallestUntrackable <= math.MaxInt64/2 {
		smallestUntrackable <<= 1
		buckets++
	}
	if counts := (buckets + 1) << (subMagnitude - 1); counts > hdrMaxCounts {
		return fmt.Errorf("decode histogram: %d counters is too many", counts)
	}
	return nil
}
