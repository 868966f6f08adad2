// Package yamlfile is the workload file: the YAML a user writes
// (docs/workload.md), read into package workload's types, and the files
// readbench writes in that format.
//
// Parse (and Load, from a path) turns a file into a checked
// workload.Workload, with every mistake reported at its file, line, column
// and key path — all of a file's mistakes at once (workload.Errors), its
// thresholds included, parsed in the grammar of package bounds — and
// records where each key was written (workload.Places), so that a mistake
// found later (after the command line's overrides, by the plan or by
// discovery) still names the line to fix.
//
// The file is walked as YAML nodes rather than decoded into structs, which
// would lose the positions, unknown keys and duplicates an error needs:
// one section (sections.go: a table of the map's keys, each with how its
// value is read) per map of the file; node.go reads single values,
// mistakes.go keeps the file's mistakes, thresholds.go reads the
// thresholds, syntax.go places a YAML syntax error. JSONSchema is the
// schema of the same keys (`readbench schema`), and Starter writes the
// commented starter file of `readbench init`, checked by Parse.
//
// It is the one package that links the YAML library, apart from the
// commands that read files: results, report, compare, capacity and ab
// never import it. It never imports client, driver or results.
package yamlfile
