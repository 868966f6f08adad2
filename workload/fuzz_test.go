package workload

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzUnmarshalJSON: whatever a result file's workload block holds (run
// --like and every reader of a result read it from outside), unmarshalling
// it returns a workload or an error, never panics; and what it reads,
// marshalled again, is a fixed point: marshalled, read back and
// marshalled once more, it writes the same bytes.
func FuzzUnmarshalJSON(f *testing.F) {
	for _, w := range savedFixtures(&testing.T{}) {
		b, err := json.Marshal(w)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"target":"stdio:a 'b c'","load":{"rate":"3000/min","stages":[{"rate":"1/s","for":"1s"}],"keep_alive":false},"mix":[{"size":"..1KiB","delay":"uniform(1ms,2ms)"}]}`))
	f.Add([]byte(`{"seed":"seven","load":{"warmup":"2 days","stages":[5]},"mix":{},"thresholds":{"turn.p99":"<"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var w Workload
		if json.Unmarshal(data, &w) != nil {
			return
		}
		once, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("Marshal of what was read: %v", err)
		}
		var back Workload
		if err := json.Unmarshal(once, &back); err != nil {
			t.Fatalf("Unmarshal of its own saved form %s: %v", once, err)
		}
		if twice, err := json.Marshal(back); err != nil || !bytes.Equal(twice, once) {
			t.Fatalf("saved again:\n%s (%v)\nwant:\n%s", twice, err, once)
		}
	})
}
