// Package readlog is the per-read export of a run (`readbench run --reads
// FILE`): one record per scheduled read, as the recorder keeps it, in JSON
// Lines or, for a file named *.csv, CSV with a header row. It is what
// vegeta's encode, k6's --out json= and oha's --output-format json give
// their users: every request, to join with a server's own logs or to
// slice in a notebook, beside the result's histograms.
//
// It streams: a read is encoded as the recorder tells it (a
// stats.Observer) and written by one goroutine through a bounded queue,
// so memory stays bounded whatever the run's length; nothing is kept.
// The fields are documented in docs/reads.md.
package readlog
