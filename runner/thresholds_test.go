package runner

import (
	"errors"
	"strings"
	"testing"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/workload"
)

// TestThresholdsNeedListeners: a command line's bound on the freshness
// loop is refused before a run without listeners (bad input, wrapping
// bounds.ErrUnknown), and accepted with them.
func TestThresholdsNeedListeners(t *testing.T) {
	more, err := bounds.ParseThresholds("errors<1%,ack.p99<1s")
	if err != nil {
		t.Fatal(err)
	}
	w := jobWorkload(t, true)
	if _, err := Thresholds(w, more); !errors.Is(err, bounds.ErrUnknown) || !strings.Contains(err.Error(), "ack.p99: unknown for this run") {
		t.Errorf("without listeners: %v, want ack.p99 refused", err)
	}
	w.Listen = &workload.Listen{Listeners: 1}
	if ts, err := Thresholds(w, more); err != nil || len(ts) != 2 {
		t.Errorf("with listeners: %v %v", ts, err)
	}
}
