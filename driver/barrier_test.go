package driver

import (
	"testing"

	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// TestWorkloadDigest: shards naming one workload file differently get
// one digest (the barrier's run id comes from it); another workload, or a
// flag that changes it, another.
func TestWorkloadDigest(t *testing.T) {
	parse := func(name, body string) *workload.Workload {
		t.Helper()
		w, err := yamlfile.Parse(name, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	const body = "name: d\nseed: 1\nload: {rate: 10/s, duration: 1s}\nmix:\n  - {class: a, weight: 1, uri: \"docs://a\"}\n"
	a, b := parse("/etc/readbench/w.yaml", body), parse("w.yaml", body)
	if WorkloadDigest(a) != WorkloadDigest(b) {
		t.Error("the same workload under two paths: two digests")
	}
	c := parse("w.yaml", body+"sessions: 2\n")
	if WorkloadDigest(a) == WorkloadDigest(c) {
		t.Error("another workload: the same digest")
	}
	d := parse("w.yaml", body)
	if err := (Overrides{Sessions: ptr(3)}).Apply(d); err != nil {
		t.Fatal(err)
	}
	if WorkloadDigest(a) == WorkloadDigest(d) {
		t.Error("a flag changed the workload: the same digest")
	}
}
