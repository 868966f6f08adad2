package report

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"

	"github.com/readbench/readbench/compare"
	"github.com/readbench/readbench/results"
)

// JUnit XML is what every CI system displays as test results, so each
// threshold of a run and each bound of a compare is written as one test
// case: a broken bound is a <failure> whose message says what was
// measured. The structure is the widely read one (Jenkins' junit-10.xsd;
// report/testdata/junit.xsd, against which a test validates the output).

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Hostname   string          `xml:"hostname,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
	Error     *junitFailure `xml:"error"` // the case could not run: ab's question not answered
	Skipped   *junitSkipped `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// junitSkipped marks a case with no verdict, saying why: a bound exceeded
// by a change the runs cannot judge is neither a pass nor a failure, and
// neither is an unhealthy run's health when thresholds decide it.
type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// add appends a case to the suite and counts it.
func (s *junitSuite) add(c junitCase) {
	s.Tests++
	if c.Failure != nil {
		s.Failures++
	}
	if c.Skipped != nil {
		s.Skipped++
	}
	if c.Error != nil {
		s.Errors++
	}
	s.Cases = append(s.Cases, c)
}

// addVerdicts adds one case per verdict row, a failure of the type kind
// for each broken bound.
func (s *junitSuite) addVerdicts(classname, kind string, rows []verdictRow) {
	for _, v := range rows {
		text := printable(v.measured)
		c := junitCase{Name: printable(v.bound), Classname: classname, Time: "0", SystemOut: text}
		switch {
		case v.inconclusive && !v.pass: // not answered, and the gate fails on it: red, as the exit status
			c.Failure = &junitFailure{Message: printable(v.bound) + ": not answered: " + text, Type: "not answered", Text: text}
		case v.inconclusive:
			c.Skipped = &junitSkipped{Message: markInconclusive + ": " + text}
		case !v.pass:
			c.Failure = &junitFailure{Message: printable(v.bound) + ": " + text, Type: kind, Text: text}
		}
		s.add(c)
	}
}

// seconds is a JUnit time attribute: plain decimal seconds.
func seconds(s float64) string {
	return strconv.FormatFloat(max(s, 0), 'f', 3, 64)
}

// WriteJUnit writes the thresholds of r (the workload's and --threshold)
// as JUnit test cases: one suite named after the workload, one case per
// bound, a failure for each broken one, and first a case for the run's
// health (junitHealth: a failure when the health alone fails the run,
// so a run without thresholds that exits 1 is never a green suite).
func WriteJUnit(w io.Writer, r *results.Result) error {
	s := junitSuite{
		Name:      "readbench thresholds: " + printable(workloadTitle(r.Workload)),
		Time:      seconds(r.Totals.MeasuredS),
		Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05"),
		Hostname:  printable(r.Host.Hostname),
		Properties: []junitProperty{
			{"verdict", endingLine(r)}, // the verdict that decided the exit status, first
			{"exit", exitWord(r.Judgement().Exit)},
			{"server", printable(serverText(r.Target))},
			{"protocol_version", printable(r.Target.ProtocolVersion)},
			{"target", printable(r.Target.Address)},
		},
	}
	s.add(junitHealth(r))
	for _, c := range junitSubscriptions(r) {
		s.add(c)
	}
	s.addVerdicts("readbench.thresholds", "threshold", thresholdRows(r))
	return writeJUnitSuites(w, "readbench", []junitSuite{s})
}

func writeJUnitSuites(w io.Writer, name string, suites []junitSuite) error {
	all := junitSuites{Name: name, Suites: suites}
	for _, s := range suites {
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("report: junit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return fmt.Errorf("report: junit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("report: junit: %w", err)
	}
	return nil
}

// WriteCompareJUnit writes the bounds of a comparison (--fail-on, and the
// content check) as JUnit test cases, one suite for the pair of results.
func WriteCompareJUnit(w io.Writer, c *compare.Comparison) error {
	s := junitSuite{
		Name:      comparedBy(c) + ": " + printable(c.New.Workload),
		Time:      "0",
		Timestamp: c.New.Started.UTC().Format("2006-01-02T15:04:05"),
		Properties: []junitProperty{
			{"base", printable(sideText(c.Base))},
			{"new", printable(sideText(c.New))},
		},
	}
	if a := c.Answer; a != nil && len(c.Bounds) > 0 {
		// The answer (ab's, or compare's gated one): an error when the
		// question was not answered, so a gate that could not look is
		// never a green suite.
		tc := junitCase{Name: "regression question answered", Classname: "readbench." + cmp.Or(c.Command, "compare"), Time: "0", SystemOut: printable(a.Line)}
		if !a.Answered {
			tc.Error = &junitFailure{Message: printable(a.Line), Type: "not answered", Text: printable(a.Line)}
		}
		s.add(tc)
	}
	s.addVerdicts("readbench.compare", "bound", boundRows(c))
	return writeJUnitSuites(w, "readbench", []junitSuite{s})
}
