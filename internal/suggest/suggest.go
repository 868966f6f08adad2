// Package suggest answers a misspelt name with the closest valid one
// ("rat" → "rate"), so that a workload key, a distribution function and a
// command's format name are all answered by one rule. It imports nothing
// of readbench.
package suggest

import (
	"fmt"
	"strings"
)

// Closest returns the option closest to word by edit distance when it is
// close enough to be a plausible typo ("rat" → "rate"), or when one holds
// the other ("normal" → "lognormal"), or else "".
func Closest(word string, options []string) string {
	best, bestDist := "", 3
	lw := strings.ToLower(word)
	for _, o := range options {
		lo := strings.ToLower(o)
		d := editDistance(lw, lo)
		if len(lw) >= 4 && (strings.Contains(lo, lw) || strings.Contains(lw, lo)) {
			d = min(d, 2) // "normal" for "lognormal", "in_flight" for "max_in_flight"
		}
		if d < bestDist && d < len(word) {
			best, bestDist = o, d
		}
	}
	return best
}

// DidYouMean renders Closest's answer as a message suffix, " (did you mean
// "x"?)", or else lists the valid options, " (want one of: a, b)", so the
// user never has to look them up. Messages append it directly after the
// quoted word they refuse.
func DidYouMean(word string, options []string) string {
	if s := Closest(word, options); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return " (want one of: " + strings.Join(options, ", ") + ")"
}

// editDistance is the Levenshtein distance between a and b, over bytes
// (keys are ASCII).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64 // far apart; keeps the cost bounded on hostile input
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
