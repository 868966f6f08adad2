package driver

import (
	"context"
	"errors"
	"testing"

	"github.com/readbench/readbench/workload"
)

// TestNotYetListening: a workload with listeners or changes is refused
// before anything starts, naming the section, rather than run as if it
// had none (the driver does not run listeners yet).
func TestNotYetListening(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(w *workload.Workload)
		key  string
	}{
		{"listen", func(w *workload.Workload) { w.Listen = workload.DefaultListen() }, "listen"},
		{"listen and changes", func(w *workload.Workload) {
			w.Listen = workload.DefaultListen()
			w.Changes = &workload.Changes{URIs: workload.ListenURIs{Attached: true}, Via: workload.ChangeVia{Server: true}}
		}, "listen"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := testWorkload(t, "embedded")
			c.edit(w)
			_, err := Run(context.Background(), Options{Workload: w})
			var we *workload.Error
			if !errors.As(err, &we) || we.Key != c.key {
				t.Fatalf("Run = %v, want a *workload.Error at %s", err, c.key)
			}
		})
	}
	w := testWorkload(t, "embedded")
	if err := notYetListening(w); err != nil {
		t.Fatalf("a workload without listeners: %v", err)
	}
}
