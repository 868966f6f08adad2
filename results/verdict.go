package results

// Verdict is one threshold as evaluated on a result: the result's
// "thresholds" key is the list of them, so that a saved run says which
// bounds it was held to and how it fared without re-evaluating anything.
// The grammar of the bounds is package bounds' (docs/compare.md); this
// package only stores what was decided.
type Verdict struct {
	Bound  string `json:"bound"`  // canonical text, e.g. "turn.p99<800ms"
	Metric string `json:"metric"` // e.g. "turn.p99"
	// Unit is what Measured and Limit are in: "ms", "%" (of scheduled
	// reads), "/s", "x" (a ratio such as inflation) or "MiB".
	Unit     string  `json:"unit"`
	Measured float64 `json:"measured"`
	Limit    float64 `json:"limit"`
	Pass     bool    `json:"pass"`
	// Reason says why a bound failed without a figure to compare (the
	// metric was not measured in this run); empty otherwise.
	Reason string `json:"reason"`
}

// Digest is what a read of one URI returned, as the result's "digests"
// key keeps it per URI: the SHA-256 of the decoded content, its MIME type
// and its decoded size, so that compare can tell a server version that
// changed what a read returns even when it is as fast.
type Digest struct {
	SHA256 string `json:"sha256"` // "sha256:" and 64 hex digits
	MIME   string `json:"mime"`
	Bytes  int64  `json:"bytes"`
}
