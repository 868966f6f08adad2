// Package targets is the server a run loads, as readbench names it: the
// Target and its Kind (embedded, stdio, http, sse, files), parsing and
// printing the one-string form ("stdio:./server --stdio",
// "sse+https://host/sse", "range+http://host/files/"; Parse, String,
// SplitArgs, JoinArgs), masking the secrets a target carries (URL
// passwords and secret query parameters, secret NAME=value words, the
// values of secret flags) in what is saved or shown (RedactSecrets,
// Target.Redacted, Target.MaskedArgs), and the guards kept against a
// target: the aim (CheckAim: loopback always, other hosts only when
// allowed, credentials never in clear text over a network unless told)
// and the largest answer a read accepts (DefaultMaxAnswer).
//
// It is a leaf so that everything that meets a target can share it: the
// workload file (which reads the YAML form {stdio: [CMD, ARG...]} itself,
// with positions, and builds a Target), the client that connects to it,
// the driver, the contract check, the result document and the command
// line. It imports no YAML library and no other readbench package but
// protocol, for the one loopback rule the client and the simulated server
// share (protocol.IsLoopbackHost); in particular it never imports
// workload or client, so the MCP client links no YAML parser.
package targets
