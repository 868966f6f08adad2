package replay

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/readbench/readbench/record"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// class is a group of the recording's URIs: those whose first answer
// was ok, by MIME type; the others by the outcome they had (a not-found
// class expects not_found, as a saved session's renamed files do).
type class struct {
	name, mime, expect string
	uris               []string // in order of first read
	reads              int
	sizes              []int64 // of its ok reads
}

// classes groups rec's reads. It returns the classes, most read first,
// and each URI's class index.
func classes(rec *record.Recording) ([]*class, map[string]int) {
	first := map[string]record.Read{} // each URI's first ok read, else its first read
	var order []string
	for _, rd := range rec.Reads {
		prev, seen := first[rd.URI]
		if !seen {
			order = append(order, rd.URI)
		}
		if !seen || (prev.Outcome != stats.OK.String() && rd.Outcome == stats.OK.String()) {
			first[rd.URI] = rd
		}
	}
	byKey := map[string]*class{}
	var list []*class
	for _, uri := range order {
		rd := first[uri]
		key, c := groupKey(rd), (*class)(nil)
		if c = byKey[key]; c == nil {
			c = &class{name: key}
			if rd.Outcome == stats.OK.String() {
				c.mime = workload.BaseMIME(rd.MIME)
			} else if slices.Contains(workload.ExpectNames(), rd.Outcome) {
				c.expect = rd.Outcome
			}
			byKey[key] = c
			list = append(list, c)
		}
		c.uris = append(c.uris, uri)
	}
	for _, rd := range rec.Reads {
		c := byKey[groupKey(first[rd.URI])]
		c.reads++
		if rd.Outcome == stats.OK.String() {
			c.sizes = append(c.sizes, rd.Bytes)
		}
	}
	slices.SortStableFunc(list, func(a, b *class) int { return cmp.Compare(b.reads, a.reads) })
	index := map[string]int{}
	for i, c := range list {
		for _, u := range c.uris {
			index[u] = i
		}
	}
	return list, index
}

// groupKey is the class name of a URI whose first (ok) read was rd.
func groupKey(rd record.Read) string {
	if rd.Outcome != stats.OK.String() {
		return strings.ReplaceAll(rd.Outcome, "_", "-")
	}
	m := workload.BaseMIME(rd.MIME)
	if m == "" {
		return "untyped"
	}
	return strings.NewReplacer("/", "-", "+", "-", ".", "-").Replace(m)
}

// quantile is the q-quantile of sorted xs (nearest rank).
func quantile(xs []int64, q float64) int64 {
	if len(xs) == 0 {
		return 0
	}
	i := int(q*float64(len(xs))+0.5) - 1
	return xs[min(max(i, 0), len(xs)-1)]
}

// yamlString writes s as a YAML scalar: a JSON string, which YAML reads
// as the same string whatever it holds.
func yamlString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}
