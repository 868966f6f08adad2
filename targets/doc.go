// Package targets is the server a run loads, as readbench names it: a
// Target and its kind, its one-string form ("stdio:./server --stdio",
// "sse+https://host/sse", "range+http://host/files/"), its secrets masked
// in what is saved or shown (URL passwords and secret query parameters,
// secret NAME=value words, the values of secret flags), and the guards
// kept against it (CheckAim: where a run may aim, and with which
// credentials; DefaultMaxAnswer).
//
// It is a leaf so that everything that meets a target shares one meaning
// of it: the workload file, the client that connects to it, the driver,
// the contract check, the result document and the command line. The
// workload file reads the YAML form of a target itself and builds a
// Target, so the MCP client links no YAML parser through this package.
package targets
