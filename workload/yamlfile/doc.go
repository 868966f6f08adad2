// Package yamlfile is the workload file: the YAML a user writes
// (docs/workload.md), read into package workload's types, and the files
// readbench writes in that format (its JSON Schema, the starter file).
//
// It is the one package that links the YAML library, apart from the
// commands that read files, so that reading, rendering or comparing a
// saved result never does. It walks a file as YAML nodes rather than
// decoding it into structs, which would lose the positions, unknown keys
// and duplicates a mistake needs: every mistake of a file is reported at
// once, at its line, column and key path.
package yamlfile
