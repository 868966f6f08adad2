// Package results is the result document ("readbench/result/v1", key by
// key in docs/results.md) and the check document: built from what a run
// recorded, saved, loaded, merged across shards and held to thresholds.
//
// The document is the contract between a run and everything after it:
// report, compare and merge read nothing else, possibly years later and on
// another machine. So what is computed from one document lives here,
// beside it, even the sentences of the policy advice, which the document stores
// (advice.reasoning) so that every report prints the same words. What it
// leaves out is as deliberate: rendering is package report's, comparing is
// package compare's, and the workload file's parser is never linked, so a
// saved result reads the same whatever the file format becomes.
package results

// Schema is the value of the "schema" key of every result this package
// writes and the only one Load accepts: a later, incompatible document gets
// a new name so that an old readbench refuses it instead of misreading it.
const Schema = "readbench/result/v1"
