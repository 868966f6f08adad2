// Package report renders documents for people and for tools: every output
// format of a result (results.Result) and of a contract check
// (results.CheckDocument) is here, one file per format:
//
//	table.go, table_advice.go, tablesummary.go  the terminal report (WriteTable), its verdict first
//	tablebrief.go               the brief report's body (WriteTable; WriteFullTable has the detail)
//	markdown.go                 the same figures for a pull request (WriteMarkdown)
//	html.go, report.html        one self-contained page with charts (WriteHTML),
//	htmlheadline.go             the headline every page opens with (the answer first)
//	htmlcompare*.go             and the compare page (CompareHTML), its verdict;
//	htmlchart*.go, htmlspectrum.go  the SVG charts both pages draw,
//	htmltimeline.go, htmllabels.go  the timelines (warmup, partial seconds) and label placement
//	hlog.go                     HdrHistogram's interval log (WriteHlog)
//	jsonreport.go               results as saved, for jq (WriteJSON)
//	comparemd.go, compare.go    compare as a table and markdown
//	junit.go, thresholds.go     JUnit for CI, and the thresholds' PASS/FAIL rows
//	capacity.go, capacityhtml.go, capacityheadline.go  a capacity search as a table, JSON or a page
//	checktable.go               the check as a table or JSON (WriteCheckTable, WriteCheckJSON)
//	inflation.go                the wire arithmetic of sizes (WriteInflation)
//	latency.go                  the latency rows every format shares
//	slowreads.go, slowreadsmd.go  the reads kept by name (trace ids): the terminal's, markdown's and the page's lists
//	compareslow.go              each side's slowest reads in the compare views
//	traceurl.go                 where trace ids link (--trace-url), and Options: the renderers as its methods
//	bytes.go, outcomes.go, connections.go  the bytes and outcomes tables and the connections lines every format shares
//	modes.go                    one document read several ways, side by side (WriteModes)
//
// A new format is one new file here, a function from a document to an
// io.Writer, and a case in the command line's --format switch. What the
// formats share lives once: the text helpers and the one word-wrapper
// (text.go), the advice rows (advice.go), and the one number format
// (internal/numfmt), so a latency reads "40.0ms" in every format.
//
// It reads documents and nothing else: it imports results (the document),
// capacity (a search's findings), stats (outcome names, ratios), units and
// workload's types, which the document's workload key is read into
// (Load.Closed included), and never the workload file's parser
// (workload/yamlfile: a renderer links no YAML), client, driver,
// contract, servercost or simserver, nor anything that speaks MCP. A report can therefore render a result saved
// years ago on another machine, and a change to how the load is driven
// cannot change how a saved result reads. results never imports report.
//
// The sentences of the policy advice are not written here: the document
// stores them (advice.reasoning, written by results when it builds the
// document), and every format prints them as stored, so all formats give
// the same advice from the same data. Strings from a document are made
// safe for each format (control characters, markdown and HTML escaping):
// a result may come from anywhere.
package report
