package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// FuzzHTMLPages renders any document results accepts as the result page
// and as both sides of a compare page: a result may come from anywhere,
// and a damaged or hostile one gives an error or a well-formed page,
// never a panic.
func FuzzHTMLPages(f *testing.F) {
	for _, name := range []string{"result.json", "troubled.json", "timeline.json"} {
		data, err := os.ReadFile(filepath.Join("..", "results", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	listening, err := json.Marshal(everything(f)) // with listeners and a fan-out
	if err != nil {
		f.Fatal(err)
	}
	f.Add(listening)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := results.Parse("fuzz.json", data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteHTML(&buf, []*results.Result{r}); err == nil {
			wellFormed(t, buf.String())
		}
		c, err := compare.Pair(r, r, compare.PairOptions{Force: true, NoiseFloor: -1})
		if err != nil {
			return
		}
		buf.Reset()
		if err := CompareHTML(&buf, c, oneRun(r), oneRun(r)); err == nil {
			wellFormed(t, buf.String())
		}
	})
}
