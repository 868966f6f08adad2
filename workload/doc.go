// Package workload is the resolved workload: what a run reads, checked,
// sampled, and saved with its result.
//
// A workload (docs/workload.md) describes turns: each turn issues a number
// of parallel resources/read calls whose URIs are drawn from a weighted mix
// of classes. This package holds the one set of types a workload is, from
// the file to the result: the file's parser (workload/yamlfile) fills them,
// the command line overrides them, Validate checks what holds across keys
// (validate.go, every mistake at once as Errors, placed at the file's line
// and column when the workload came from a file: Places), NewPlan turns
// them into a Sampling (the deterministic sequence of turns a run issues, so
// that two runs with the same seed read the same URIs in the same order
// and shards of one run can generate their share of turns independently),
// Resolve matches mime+size classes to a target's listing, and Step makes a
// capacity step's workload.
//
// The same types are the "workload" key of every result
// (docs/results.md): they marshal to it (savedjson.go: values as their
// text, defaults written out, secrets redacted) and read it back
// (savedread.go), so that a result alone can be run again (`readbench run
// --like`) and its readers (results, report, compare, capacity) hold the
// workload's own values, never text to parse again. unsaved.go refuses a
// workload whose secrets a result could not keep until they are given
// again.
//
// It imports units, bounds, targets and protocol (leaves) and never the
// YAML library, so that reading a result links no YAML parser: the file
// format is workload/yamlfile's. It never imports client, driver, results
// or workload/yamlfile.
package workload
