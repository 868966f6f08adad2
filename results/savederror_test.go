package results

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestParseWorkloadMistakes: a workload value that does not read back is
// refused with the document, at its line and column, every one of them:
// a value of the wrong JSON type worded as encoding/json words its own.
func TestParseWorkloadMistakes(t *testing.T) {
	good, err := os.ReadFile("testdata/result.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(good), `"seed": 42,`, `"seed": "seven",`, 1)
	doc = strings.Replace(doc, `"warmup": "2s",`, `"warmup": "2 days",`, 1)
	doc = strings.Replace(doc, `"size": "1834208",`, `"size": "8kb",`, 1)
	place := func(needle string) string { // where needle starts: "r.json:LINE:COL:"
		i := strings.Index(doc, needle)
		return "r.json:" + strconv.Itoa(strings.Count(doc[:i], "\n")+1) + ":" + strconv.Itoa(i-strings.LastIndex(doc[:i], "\n")) + ":"
	}
	_, err = Parse("r.json", []byte(doc))
	for _, want := range []string{
		place(`"seven"`) + ` bad result: "workload.seed" cannot be a string (want int64)`,
		place(`"2 days"`) + ` bad result: workload.load.warmup: duration "2 days"`,
		place(`"8kb"`) + ` bad result: workload.mix[1].size: bad size "8kb"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse = %v\nwant %q", err, want)
		}
	}
}
