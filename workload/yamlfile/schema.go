package yamlfile

import (
	_ "embed" // for the schema
)

// schema is a string, not a []byte, so that it cannot be changed.
//
//go:embed schema.json
var schema string

// JSONSchema returns the JSON Schema (draft 2020-12) of the workload file,
// which `readbench schema` prints so that editors can complete and check
// workload files as they are typed. It describes the same keys the parser
// accepts (a test keeps the two in step); the parser remains the authority
// on values. The caller gets its own copy.
func JSONSchema() []byte { return []byte(schema) }
