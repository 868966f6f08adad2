package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/internal/needs"
	"github.com/readbench/readbench/results"
)

// xmllintInstall is how a machine gets xmllint (make deps does it).
const xmllintInstall = "apt-get install libxml2-utils (or make deps)"

// validateJUnit checks doc against the committed JUnit schema with
// xmllint, returning its complaint ("" when valid).
func validateJUnit(t *testing.T, doc []byte) string {
	t.Helper()
	xmllint := needs.Tool(t, "xmllint", xmllintInstall)
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit.xsd", path).CombinedOutput()
	if err != nil {
		return string(out)
	}
	return ""
}

// TestJUnitValidates: the JUnit of a run's thresholds and of a compare's
// bounds, broken ones and names full of XML's special characters
// included, validates against the schema; and the schema check can fail
// (a suite without its required counts is refused), so the test proves
// something.
func TestJUnitValidates(t *testing.T) {
	r := fixture(t, false)
	r.Thresholds = []results.Verdict{
		{Bound: "turn.p99<800ms", Metric: "turn.p99", Unit: "ms", Measured: 812.5, Limit: 800},
		{Bound: `errors<1%`, Metric: "errors", Unit: "%", Measured: 0.2, Limit: 1, Pass: true},
		{Bound: "server_cost.rss_peak<1GiB", Metric: "server_cost.rss_peak", Unit: "MiB", Reason: "not measured in this result (\"<&>\" \x01)"},
	}
	var run bytes.Buffer
	if err := WriteJUnit(&run, r); err != nil {
		t.Fatal(err)
	}
	if msg := validateJUnit(t, run.Bytes()); msg != "" {
		t.Fatalf("run JUnit does not validate: %s\n%s", msg, run.String())
	}
	for _, want := range []string{`tests="4" failures="2"`, `name="health"`, `name="turn.p99&lt;800ms"`, `measured 813ms`} {
		if !strings.Contains(run.String(), want) {
			t.Errorf("run JUnit lacks %q:\n%s", want, run.String())
		}
	}
	cmp, err := compare.Pair(r, r, compare.PairOptions{BaseLabel: "a<b>.json", NewLabel: "new&.json"})
	if err != nil {
		t.Fatal(err)
	}
	cmp.Bounds = []compare.BoundCheck{
		{Bound: "read.p99=+10%", Metric: "read.p99", Unit: "ms", Base: 10, New: 20, Limit: 11, Noise: compare.Significant},
		{Bound: "rate=-5%", Metric: "rate", Unit: "/s", Base: 10, New: 10, Limit: 9.5, Pass: true, Noise: compare.Unchanged},
	}
	var c bytes.Buffer
	if err := WriteCompareJUnit(&c, cmp); err != nil {
		t.Fatal(err)
	}
	if msg := validateJUnit(t, c.Bytes()); msg != "" {
		t.Fatalf("compare JUnit does not validate: %s\n%s", msg, c.String())
	}
	if !strings.Contains(c.String(), `tests="2" failures="1"`) {
		t.Errorf("compare JUnit counts:\n%s", c.String())
	}
	broken := strings.Replace(run.String(), `<testsuite name=`, `<testsuite tests="x" name=`, 1)
	broken = strings.Replace(broken, ` tests="3" failures="2" errors="0" skipped`, ` skipped`, 1)
	if validateJUnit(t, []byte(broken)) == "" {
		t.Errorf("a suite without failures and errors counts validated: the schema checks nothing")
	}
}
