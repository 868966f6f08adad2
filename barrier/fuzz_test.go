package barrier

import (
	"encoding/json"
	"testing"
)

// FuzzParse: a ready file is outside input (a shared folder). Parse never
// panics, and what it accepts is a consistent record that writes back and
// parses to itself.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"run":"ab12","k":2,"n":3,"host":"node-a","ready":"2026-12-01T09:00:00.5Z"}`))
	f.Add([]byte(`{"run":"a","k":1,"n":1,"host":"","ready":"2026-12-01T09:00:00Z","start_at":"2026-12-01T09:00:02Z"}`))
	f.Add([]byte(`{"run":"a","k":9,"n":3}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		if r.Run == "" || r.K < 1 || r.K > r.N || r.N > maxShards || r.Ready.IsZero() {
			t.Fatalf("accepted an inconsistent record %+v", r)
		}
		again, err := json.Marshal(r)
		if err != nil {
			return // a time json cannot write (a year past 9999): never written by a shard
		}
		r2, err := Parse(again)
		if err != nil || !r2.Ready.Equal(r.Ready) || r2.K != r.K || r2.Run != r.Run {
			t.Fatalf("%+v wrote back as %s: %+v, %v", r, again, r2, err)
		}
	})
}
