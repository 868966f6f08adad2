// Package saved is the resolved workload in the form a result document
// saves it (the "workload" key of readbench/result/v1, docs/results.md):
// every value as its text ("50/s", "800ms", "lognormal(12ms,40ms)"), the
// defaults it ran with written out, and no secret (header values and the
// OAuth client secret are Redacted, a URL's password masked).
//
// It is a leaf with no YAML and no other readbench package, so that both
// sides of the document can share one type: package workload converts its
// resolved Workload to this form and back (workload.(*Workload).Saved,
// workload.FromSaved, tested to lose no field), and package results keeps
// it in every result and reads it (results.Workload is this Workload)
// without importing the workload file format. Before this package the two
// sides held hand copies of each other, which drifted: a saved result lost
// load.handshake_timeout, connect_rate and min_sessions.
//
// It never imports any other readbench package.
package saved

// Redacted replaces every secret in a saved workload: a header's value
// (the names show which headers were sent) and the OAuth client secret.
// A workload restored from a result carries it where the secret was, and
// refuses to run until the secret is given again.
const Redacted = "<redacted>"
