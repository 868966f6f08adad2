package results

import "github.com/readbench/readbench/internal/numfmt"

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

// What is what a threshold measured ("measured 912ms"), or why it could
// not be measured: the one wording of a verdict, in every report and in
// every message that names a broken threshold.
func (v Verdict) What() string {
	if v.Reason != "" {
		return v.Reason
	}
	return "measured " + numfmt.Value(v.Unit, v.Measured)
}

// Broken names each threshold of vs that failed, with what it measured:
// "turn.p99<800ms (measured 912ms)"; none when all held.
func Broken(vs []Verdict) []string {
	var out []string
	for _, v := range vs {
		if !v.Pass {
			out = append(out, v.Bound+" ("+v.What()+")")
		}
	}
	return out
}
