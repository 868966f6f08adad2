// Package results holds the result document: it builds it from what a run
// recorded, saves and loads it, and holds the document of `readbench
// check`. Merging shards belongs here too: it is a computation on
// documents. Comparing them is package compare's, which reads documents
// through this one. It never renders:
// every output format (table, markdown, HTML, hlog, JSON, the check table)
// is package report's, which imports this package and is never imported by
// it.
//
// Holding a result to bounds is a computation on the document too: the
// grammar of thresholds and compare bounds is package bounds' (a leaf, so
// that workload files can be checked with it), and this package measures
// a metric in a result (Result.MetricValue), holds a result to thresholds
// (Evaluate, EvaluateAll); package compare holds a comparison to compare
// bounds. Whether a run measured anything at all, whatever its
// bounds, is decided here too (Useless, useless.go).
//
// One piece of prose is written here, on purpose: the sentences of the
// policy advice (advice_text.go, and useless.go's about a server without
// resources/read). The v1 document stores them under
// advice.reasoning, so whoever builds the document writes them; the
// reports print them as stored. Their numbers use the reports' one format
// (internal/numfmt).
//
// The document ("readbench/result/v1", described key by key in
// docs/results.md) is the contract between a run and everything after it:
// report, compare and merge read nothing else, possibly years later and on
// another machine. So it is self-describing (the workload as resolved, the
// target, the host, the tool version), it keeps every latency histogram in
// the HdrHistogram compressed encoding so that shards merge exactly and
// other HDR tools can read them, and every top-level key is present in
// every result, empty rather than absent, so scripts (jq, dashboards) never
// need to guess. The schema only grows: a v1 key is never removed or
// changed in meaning. A figure with nothing under it (a ratio over a zero
// or missing divisor, a rate over no measured time, a slope of a run too
// short to fit one) is null, never a 0 that would read as measured; the
// ratios are all made by one function (quotient, figure.go).
//
// Secrets never reach a result: header values are replaced by "<redacted>"
// and passwords in target URLs are masked.
//
// The workload a result records (its "workload" key) is package
// workload's own type, which marshals to that key and back (secrets
// redacted, values as their text) and is read back once, when the document
// is: a saved duration is a time.Duration here, never text to parse again.
// This package never imports the workload file's parser
// (workload/yamlfile) or the YAML library, so that report, which reads
// documents through this package, links no YAML parser, and a saved result
// reads the same whatever the file format becomes.
package results

// Schema is the value of the "schema" key of every result this package
// writes and the only one Load accepts: a later, incompatible document gets
// a new name so that an old readbench refuses it instead of misreading it.
const Schema = "readbench/result/v1"
