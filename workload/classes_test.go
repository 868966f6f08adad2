package workload_test

import (
	"github.com/readbench/readbench/workload/yamlfile"
	"strings"
	"testing"
)

func TestKeepClasses(t *testing.T) {
	w, err := yamlfile.Parse("w.yaml", []byte(`
name: w
load: {rate: 1/s, duration: 1s}
mix:
  - {class: whole, mime: text/plain, size: 1KiB}
  - {class: chunked, mime: text/plain, size: 1KiB, ranged: {chunk: 256}}
  - {class: other, mime: text/plain, size: 1KiB, weight: 3}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.KeepClasses([]string{"other", "chunked"}); err != nil {
		t.Fatal(err)
	}
	if len(w.Mix) != 2 || w.Mix[0].Name != "chunked" || w.Mix[1].Name != "other" || w.Mix[1].Weight != 3 || w.Mix[0].Ranged == nil {
		t.Errorf("mix %+v", w.Mix)
	}
	if err := w.Validate(); err != nil {
		t.Error(err)
	}
	err = w.KeepClasses([]string{"chunkd"})
	if err == nil || !strings.Contains(err.Error(), `did you mean "chunked"`) {
		t.Errorf("unknown class: %v", err)
	}
}
