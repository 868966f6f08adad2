// Package report renders documents for people and for tools: every output
// format of a result, a check, a comparison and a capacity search
// (`--format`; the HTML page is docs/report.md).
//
// It reads documents and nothing else, never anything that speaks MCP or
// drives load, so a report renders a result saved years ago on another
// machine, and a change to how the load is driven cannot change how a
// saved result reads. It writes no sentence of a run's advice either: the
// document stores them and every format prints them as stored, so all
// formats say the same. A new format is one file here, a function from a
// document to an io.Writer, and a case in the command's --format switch.
package report
