// Package results turns what a run recorded into a result document, saves
// and loads it, and renders it for people.
//
// The document ("readbench/result/v1", DESIGN §7) is the contract between a
// run and everything after it: report, compare and merge read nothing else,
// possibly years later and on another machine. So it is self-describing (the
// workload as resolved, the target, the host, the tool version), it keeps
// every latency histogram in the HdrHistogram compressed encoding so that
// shards merge exactly and other HDR tools can read them, and every
// top-level key is present in every result, empty rather than absent, so
// scripts (jq, dashboards) never need to guess.
//
// Secrets never reach a result: header values are replaced by "<redacted>"
// and passwords in target URLs are masked.
package results

// Schema is the value of the "schema" key of every result this package
// writes and the only one Load accepts: a later, incompatible document gets
// a new name so that an old readbench refuses it instead of misreading it.
const Schema = "readbench/result/v1"

// Redacted replaces every header value in a saved workload: the names show
// which headers a run sent, the values (tokens, cookies) are never written.
const Redacted = "<redacted>"
