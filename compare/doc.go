// Package compare holds the comparison of result documents, `readbench
// compare`'s and `readbench ab`'s: each figure's change, whether it is
// real or within the noise (the run being the unit when a side has
// several), and whether it breaks the compare bounds (docs/compare.md).
//
// It reads saved results only, through package results, and never
// renders (the compare views are package report's), so a comparison can
// be made of results saved years apart, on other machines, by any command
// that has them.
package compare
