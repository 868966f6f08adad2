package stats

import (
	"fmt"
	"testing"
)

// TestURIMarksFindEachURI: a subscription's marks find every URI it asked
// for, at its place, and no other, below and past the count at which they
// are indexed; a URI asked for twice has one mark.
func TestURIMarksFindEachURI(t *testing.T) {
	for _, n := range []int{1, marksIndexAt, marksIndexAt + 1, 3 * marksIndexAt} {
		uris := make([]string, 0, n+1)
		for i := range n {
			uris = append(uris, fmt.Sprintf("sim:///%d.md", i))
		}
		uris = append(uris, uris[0]) // asked twice
		m := newURIMarks(uris, func(u string) int { return len(u) * 10 })
		if len(m.list) != n {
			t.Fatalf("%d URIs: %d marks, want %d", n, len(m.list), n)
		}
		for _, u := range uris {
			k := m.find(u)
			if k == nil || k.uri != u || k.start != len(u)*10 || k.cursor != k.start {
				t.Fatalf("%d URIs: mark of %s = %+v", n, u, k)
			}
		}
		m.find(uris[n-1]).cursor++
		if got := m.find(uris[n-1]).cursor; got != len(uris[n-1])*10+1 {
			t.Errorf("%d URIs: a cursor moved reads %d", n, got)
		}
		if m.find("sim:///other.md") != nil {
			t.Errorf("%d URIs: a URI not asked for has a mark", n)
		}
	}
}
