package simserver

import (
	"strconv"
	"strings"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// TestMaxMessage: an answer whose encoded message is over the cap is a
// -32603 error naming the cap and the size; one under it is served as is;
// 0 is no cap.
func TestMaxMessage(t *testing.T) {
	const limit = 4096
	for _, c := range []struct {
		name  string
		limit int64
		size  int
		fails bool
	}{
		{"under the cap", limit, 1000, false},
		{"over the cap", limit, 8000, true},
		{"no cap", 0, 100000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := startStdio(t, New(Options{MaxMessage: c.limit}))
			uri := "sim:///m?mime=text/plain&size=" + strconv.Itoa(c.size)
			m := p.roundTrip(request(t, 1, protocol.MethodResourcesRead, readParams(uri, "")))
			if !c.fails {
				if r := decodeRead(t, m); len(r.Contents) != 1 {
					t.Fatalf("%d contents", len(r.Contents))
				}
				return
			}
			e := rpcError(t, m)
			if e.Code != protocol.CodeInternal || !strings.Contains(e.Message, "maximum message size of 4096 bytes") {
				t.Fatalf("error %d %q", e.Code, e.Message)
			}
			d := errData(t, e)
			if d["max_message"] != float64(limit) || !(d["size"].(float64) > 8000) {
				t.Errorf("data %v", d)
			}
		})
	}
}
