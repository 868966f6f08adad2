package h2

import (
	"bytes"
	"io"
	"net"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// serverFrames is what a server might send: settings with a stream limit,
// a refused stream, an answer's headers and data, a reset, a GOAWAY with
// debug data. Written by the HTTP/2 library's own framer.
func serverFrames(t testing.TB) []byte {
	var buf bytes.Buffer
	fr := http2.NewFramer(&buf, nil)
	var hb bytes.Buffer
	_ = hpack.NewEncoder(&hb).WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
	for _, err := range []error{
		fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1 << 20}, http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 7}),
		fr.WriteSettingsAck(),
		fr.WriteRSTStream(1, http2.ErrCodeRefusedStream),
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: hb.Bytes(), EndHeaders: true}),
		fr.WriteData(3, false, bytes.Repeat([]byte{0}, 20000)),
		fr.WriteRSTStream(3, http2.ErrCodeCancel),
		fr.WriteGoAway(3, http2.ErrCodeNo, []byte("bye now")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

type nopConn struct{ net.Conn }

// TestFrameScanCountsAcrossAnySplit: the counts are the same however the
// bytes are cut into reads.
func TestFrameScanCountsAcrossAnySplit(t *testing.T) {
	in := serverFrames(t)
	for _, size := range []int{1, 2, 5, 8, 9, 10, 13, 4096, len(in)} {
		var c counters
		f := newFrameConn(nopConn{}, &c)
		for p := in; len(p) > 0; {
			n := min(size, len(p))
			f.in.scan(p[:n])
			p = p[n:]
		}
		if c.refused.Load() != 1 || c.resetsReceived.Load() != 2 || c.goAwayReceived.Load() != 1 ||
			f.maxStreams.Load() != 7 || c.maxStreams.Load() != 7 || !f.goAwayIn.Load() || c.streams.Load() != 0 {
			t.Fatalf("reads of %d bytes: refused %d, resets %d, goaway %d, max streams %d: want 1, 2, 1, 7",
				size, c.refused.Load(), c.resetsReceived.Load(), c.goAwayReceived.Load(), f.maxStreams.Load())
		}
	}
}

// TestFrameScanSkipsThePreface: a client's frames come after its preface.
func TestFrameScanSkipsThePreface(t *testing.T) {
	var buf bytes.Buffer
	io.WriteString(&buf, clientPreface)
	fr := http2.NewFramer(&buf, nil)
	_ = fr.WriteSettings()
	_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: []byte{0x82}, EndHeaders: true, EndStream: true})
	_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: []byte{0x82}, EndHeaders: true, EndStream: true})
	_ = fr.WriteRSTStream(3, http2.ErrCodeCancel)
	var c counters
	f := newFrameConn(nopConn{}, &c)
	for _, b := range buf.Bytes() {
		f.out.scan([]byte{b})
	}
	if c.streams.Load() != 2 || c.resetsSent.Load() != 1 {
		t.Fatalf("streams %d, resets sent %d: want 2, 1", c.streams.Load(), c.resetsSent.Load())
	}
}

// FuzzFrameScan: whatever a server sends, the scan neither panics nor
// keeps more than a frame header and 8 bytes.
func FuzzFrameScan(f *testing.F) {
	f.Add(serverFrames(f), 3)
	f.Add([]byte{0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 9}, 1)
	f.Fuzz(func(t *testing.T, in []byte, size int) {
		size = max(1, size%64)
		var c counters
		fc := newFrameConn(nopConn{}, &c)
		for p := in; len(p) > 0; {
			n := min(size, len(p))
			fc.in.scan(p[:n])
			p = p[n:]
		}
		if s := fc.in; s.nhdr > len(s.hdr) || s.npay > len(s.pay) || s.left < 0 {
			t.Fatalf("scan state out of bounds: %+v", s)
		}
	})
}
