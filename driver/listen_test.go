package driver

import (
	"context"
	"errors"
	"testing"

	"github.com/readbench/readbench/workload"
)

// TestListenInShardsRefused: a workload with listeners split in shards is
// refused before anything starts, naming the section (no shard could
// match the notifications of another shard's changes), and a whole run or
// a workload without listeners is not.
func TestListenInShardsRefused(t *testing.T) {
	w := testWorkload(t, "embedded")
	w.Listen = workload.DefaultListen()
	_, err := Run(context.Background(), Options{Workload: w, Segment: workload.Segment{K: 1, N: 2}})
	var we *workload.Error
	if !errors.As(err, &we) || we.Key != "listen" {
		t.Fatalf("Run = %v, want a *workload.Error at listen", err)
	}
	if err := checkListenable(w, workload.Segment{}); err != nil {
		t.Errorf("a whole run: %v", err)
	}
	if err := checkListenable(testWorkload(t, "embedded"), workload.Segment{K: 1, N: 2}); err != nil {
		t.Errorf("a workload without listeners: %v", err)
	}
}
