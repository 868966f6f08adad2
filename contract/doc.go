// Package contract is `readbench check`: a target's read contract checked
// before it is loaded, so that a load run never measures a server that
// answers the wrong thing fast. The checks, and what each one sends, are
// docs/check.md.
//
// It reads through the same client a load run measures with, opened by
// client.Open and used only through what it opened to (a client.Session,
// or client.Documents for a range+http target), never a concrete
// transport: what the check passes is what a run will meet. Its Findings
// are plain data; the check document and its renderers are package
// results' and package report's.
package contract
