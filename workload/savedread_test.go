package workload

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// TestUnmarshalErrors: a saved value that does not read back is named by
// its key path, every one of them at once, each a *SavedError.
func TestUnmarshalErrors(t *testing.T) {
	b, err := json.Marshal(savedFixtures(t)["stdio, closed, weighted attachments"])
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	load := doc["load"].(map[string]any)
	load["warmup"], load["connect_rate"] = "2 days", "fast"
	doc["mix"].([]any)[0].(map[string]any)["size"] = "8kb"
	doc["sessions"] = "seven"
	doc["thresholds"] = map[string]string{"turn.p99": "<"}
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	var w Workload
	err = json.Unmarshal(b, &w)
	for _, want := range []string{"workload.load.warmup: duration \"2 days\"", "workload.load.connect_rate: bad rate", "workload.mix[0].size: bad size",
		"workload.sessions: json: cannot unmarshal string", "workload.thresholds.turn.p99: "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Unmarshal = %v, want %q", err, want)
		}
	}
	var se *SavedError
	var te *json.UnmarshalTypeError
	if !errors.As(err, &se) || !errors.As(err, &te) || te.Value != "string" {
		t.Errorf("Unmarshal = %#v: want *SavedError, and a *json.UnmarshalTypeError for the string where a number belongs", err)
	}
	if se != nil && !slices.Equal(se.Path, []string{"workload", "sessions"}) {
		t.Errorf("the first error's path is %q", se.Path)
	}
	if got := (&SavedError{Path: []string{"workload", "mix", "[0]", "size"}}).Key(); got != "workload.mix[0].size" {
		t.Errorf("Key = %q", got)
	}
}

// TestUnmarshalOlderResult: a result written before a key existed reads
// it as the default it stood for; null and a missing key alike.
func TestUnmarshalOlderResult(t *testing.T) {
	var w Workload
	err := json.Unmarshal([]byte(`{"target":"","load":{"model":"open","rate":"50/s","handshake_timeout":"","connect_rate":"",
		"session_lifetime":"","keep_alive":null,"trace_sample":null},"turn":{"attachments":1,"read_timeout":"5s","deadline":"0s"},
		"mix":[{"class":"c","weight":1,"uri":"docs://a"}],"headers":null,"thresholds":{}}`), &w)
	if err != nil {
		t.Fatal(err)
	}
	want := Workload{Target: targets.Target{Kind: targets.Embedded},
		Load: Load{Model: ModelOpen, Rate: units.Rate{PerSecond: 50, Text: "50/s"}},
		Turn: Turn{Attachments: Attachments{Fixed: 1}, ReadTimeout: 5 * time.Second},
		Mix:  []Class{{Name: "c", Weight: 1, URI: "docs://a"}}}
	if !reflect.DeepEqual(w, want) {
		t.Errorf("read\n%#v\nwant\n%#v", w, want)
	}
}
