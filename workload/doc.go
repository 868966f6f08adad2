// Package workload is the resolved workload: what a run reads (turns of
// parallel resources/read calls drawn from a weighted mix of classes,
// docs/workload.md), checked, sampled, and saved with its result.
//
// It is one set of types from the file to the result: the file's parser
// fills them, the command line overrides them, and they are the "workload"
// key of every result, marshalled and read back here, so a result alone
// can be run again (`run --like`) and its readers hold the workload's own
// values, never text to parse again. It links no YAML parser (the file
// format is workload/yamlfile's), so reading a result never does; and the
// checks that hold across keys live here rather than in the parser,
// because they must hold again after the command line's overrides.
package workload
